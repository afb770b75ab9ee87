import { expect } from 'chai';
import { appliedPlan } from '../../support/applied-plan';
import { CachedSynthesis, GatewayError, ResultCache, resultCacheKey, type CacheStorage, type SynthesisRequest, type SynthesisResult, type SynthesisStream, type Synthesizer } from '../../../core';
import { QUIET_LOGGER } from '../../support/quiet-logger';
import { extended } from '../../../core/objects/extended';
import { memoryStorage, request, text } from './cache-test-support';

function fixture(options: { failFirst?: boolean; maxBytes?: number } = {}) {
  const files = new Map<string, Uint8Array>();
  const storage = memoryStorage(files);
  const calls: SynthesisRequest[] = [];
  const facts = { format: 'mp3' as const, applied: appliedPlan(), provider: 'acme', servedBy: 'm/v', instructionsIgnored: false };
  const synthesizer: Synthesizer = {
    synthesize: async (synthesisRequest) => {
      calls.push(synthesisRequest);
      await new Promise((resolve) => setTimeout(resolve, 10));
      if (options.failFirst && calls.length === 1) throw new GatewayError('TTS_ERR_UPSTREAM', 'broke');
      const saved = await storage.save(Buffer.from(`audio of ${synthesisRequest.text}`), 'mp3');
      return { ...saved, ...facts } satisfies SynthesisResult;
    },
    stream: async (synthesisRequest) => {
      calls.push(synthesisRequest);
      const progress = { bytes: 0 };
      async function* chunks() {
        for (const piece of ['streamed ', 'audio']) {
          progress.bytes += piece.length;
          yield Buffer.from(piece);
        }
      }
      return { ...facts, progress, chunks: chunks() } satisfies SynthesisStream;
    },
  };
  const cache = new ResultCache({ maxBytes: options.maxBytes ?? 1_000_000, ttlMs: 60_000 });
  return { cached: new CachedSynthesis(synthesizer, cache, storage, QUIET_LOGGER, { maxStreamBytes: 1000 }), calls, files, cache };
}

describe('core/cache CachedSynthesis', () => {
  it('keys on everything that changes the audio, with whitespace normalized', () => {
    expect(resultCacheKey(request({ text: ' Hello\n there. ' }))).to.equal(resultCacheKey(request({ text: 'Hello there.' })));
    for (const change of [{ model: 'n' }, { voice: 'w' }, { text: 'Hello there!' }, { speed: 1.1 }, { pitch: 0.9 }, { volume: 2 }, { format: 'wav' as const }, { sampleRate: 24000 }, { instructions: 'Calm.' }]) {
      expect(resultCacheKey(request(change)), JSON.stringify(change)).not.to.equal(resultCacheKey(request()));
    }
  });

  it('uses a lookup started ahead for the same request, once, and ignores one for another request', async () => {
    const { cached, cache } = fixture();
    await cached.synthesize(request(), { requestId: 'a' });
    const reads: string[] = [];
    const get = cache.get.bind(cache);
    cache.get = (key: string) => (reads.push(key), get(key));
    const ahead = cached.lookUp(request());
    expect(reads).to.deep.equal([resultCacheKey(request())]);
    const hit = await cached.synthesize(request(), { requestId: 'b', resultLookup: ahead });
    expect(hit.cache).to.equal('hit');
    expect(reads, 'no second read').to.have.length(1);
    const streamed = await cached.stream(request(), { requestId: 'c', resultLookup: cached.lookUp(request()) });
    expect([streamed.cache, await text(streamed)]).to.deep.equal(['hit', 'audio of Hello  there.']);
    expect(reads).to.have.length(2);
    // A lookup for other words is not taken for this request's.
    const other = await cached.synthesize(request({ text: 'Other words.' }), { requestId: 'd', resultLookup: ahead });
    expect(other.cache).to.equal('miss');
    expect(reads.slice(2)[0]).to.equal(resultCacheKey(request({ text: 'Other words.' })));
  });

  it('reads again when a lookup started ahead may predate an identical synthesis that ended meanwhile', async () => {
    const { cached, calls } = fixture();
    const ahead = cached.lookUp(request());
    const first = cached.synthesize(request(), { requestId: 'a' });
    // The first is under way (its provider takes 10 ms) when the second, looked up before, comes.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await ahead.found).to.equal(undefined);
    const streamed = await cached.stream(request(), { requestId: 'b', resultLookup: ahead });
    await first;
    expect(streamed.cache).to.equal('hit');
    expect(calls).to.have.length(1);
  });

  it('answers a repeat from the cache with a new file of the same bytes, calling no provider', async () => {
    const { cached, calls, files } = fixture();
    const first = await cached.synthesize(request(), { requestId: 'a' });
    const second = await cached.synthesize(request({ text: 'Hello there.' }), { requestId: 'b' });
    expect([first.cache, second.cache]).to.deep.equal(['miss', 'hit']);
    expect(calls).to.have.length(1);
    expect(second.fileName).not.to.equal(first.fileName);
    expect(Buffer.from(files.get(second.fileName) as Uint8Array).toString()).to.equal(Buffer.from(files.get(first.fileName) as Uint8Array).toString());
    expect(second).to.deep.include({ applied: appliedPlan(), servedBy: 'm/v', provider: 'acme' });
  });

  it('shares one synthesis among 6 identical concurrent requests, each with its own file', async () => {
    const { cached, calls } = fixture();
    const results = await Promise.all(Array.from({ length: 6 }, (_value, index) => cached.synthesize(request(), { requestId: `r${index}` })));
    expect(calls).to.have.length(1);
    expect(results.filter((result) => result.cache === 'miss')).to.have.length(1);
    expect(new Set(results.map((result) => result.fileName)).size).to.equal(6);
  });

  it('lets a request waiting for an identical synthesis go as soon as its client leaves; the synthesis goes on for the others', async () => {
    const { cached, calls } = fixture();
    const first = cached.synthesize(request(), { requestId: 'a' });
    const leaving = new AbortController();
    const waiter = cached.synthesize(request(), { requestId: 'b', signal: leaving.signal });
    const gone = new GatewayError('TTS_ERR_CANCELLED', 'The request (the client went away) was cancelled');
    leaving.abort(gone);
    let settledFirst = false;
    void first.then(() => (settledFirst = true));
    expect(await waiter.then(() => 'answered', (error: unknown) => error)).to.equal(gone);
    expect(settledFirst, 'the waiter left before the shared synthesis ended').to.equal(false);
    expect((await first).cache).to.equal('miss');
    expect(calls).to.have.length(1);
    // A stream waits for an identical file synthesis too, and stops waiting alike.
    const file = cached.synthesize(request({ text: 'Other.' }), { requestId: 'c' });
    await new Promise((resolve) => setImmediate(resolve)); // its lookup done, its synthesis under way
    const streamWaiter = cached.stream(request({ text: 'Other.' }), { requestId: 'd', signal: leaving.signal });
    expect(await streamWaiter.then(() => 'answered', (error: unknown) => error)).to.equal(gone);
    expect((await file).cache).to.equal('miss');
    expect(calls).to.have.length(2);
  });

  it('remembers nothing from a failure: the next request synthesizes again', async () => {
    const { cached, calls } = fixture({ failFirst: true });
    const failure = await cached.synthesize(request(), { requestId: 'a' }).then(() => undefined, (error: GatewayError) => error.code);
    expect(failure).to.equal('TTS_ERR_UPSTREAM');
    expect((await cached.synthesize(request(), { requestId: 'b' })).cache).to.equal('miss');
    expect(calls).to.have.length(2);
  });

  it('neither reads nor writes the cache when the client opts out', async () => {
    const { cached, calls } = fixture();
    expect((await cached.synthesize(request(), { requestId: 'a', useCache: false })).cache).to.equal('bypass');
    expect((await cached.synthesize(request(), { requestId: 'b' })).cache).to.equal('miss');
    expect((await cached.synthesize(request(), { requestId: 'c', useCache: false })).cache).to.equal('bypass');
    expect(calls).to.have.length(3);
  });

  it('forgets an entry whose file is gone', async () => {
    const { cached, calls, files } = fixture();
    await cached.synthesize(request(), { requestId: 'a' });
    files.clear();
    expect((await cached.synthesize(request(), { requestId: 'b' })).cache).to.equal('miss');
    expect(calls).to.have.length(2);
  });

  it('remembers a finished stream and streams the stored bytes on a repeat, for streams and files alike', async () => {
    const { cached, calls } = fixture();
    const live = await cached.stream(request(), { requestId: 'a' });
    expect(live.cache).to.equal('miss');
    expect(await text(live)).to.equal('streamed audio');
    const repeat = await cached.stream(request(), { requestId: 'b' });
    expect(repeat.cache).to.equal('hit');
    expect(await text(repeat)).to.equal('streamed audio');
    expect(repeat.progress.bytes).to.equal(14);
    expect((await cached.synthesize(request(), { requestId: 'c' })).cache).to.equal('hit');
    expect(calls).to.have.length(1);
  });

  it('gives a hit the duration of its miss: a stream hit counts its seconds, a file hit of a stored stream carries them', async () => {
    const files = new Map<string, Uint8Array>();
    const storage = memoryStorage(files);
    const facts = { format: 'mp3' as const, applied: appliedPlan(), provider: 'acme', servedBy: 'm/v', instructionsIgnored: false };
    const synthesizer: Synthesizer = {
      synthesize: async () => extended(await storage.save(Buffer.from('file audio'), 'mp3'), extended(facts, { durationSeconds: 3 })),
      stream: async () => {
        // As the gateway's encoder reports it: the seconds made so far, with each piece.
        const progress: { bytes: number; durationSeconds?: number } = { bytes: 0 };
        async function* chunks() {
          for (const [piece, seconds] of [['streamed ', 1], ['audio', 2.5]] as const) {
            progress.bytes += piece.length;
            progress.durationSeconds = seconds;
            yield Buffer.from(piece);
          }
        }
        return extended(facts, { progress, chunks: chunks() });
      },
    };
    const cached = new CachedSynthesis(synthesizer, new ResultCache({ maxBytes: 1_000_000, ttlMs: 60_000 }), storage, QUIET_LOGGER, { maxStreamBytes: 1000 });
    const live = await cached.stream(request(), { requestId: 'a' });
    await text(live);
    expect(live.progress.durationSeconds).to.equal(2.5);
    const repeat = await cached.stream(request(), { requestId: 'b' });
    await text(repeat);
    expect([repeat.cache, repeat.progress.durationSeconds]).to.deep.equal(['hit', 2.5]);
    const file = await cached.synthesize(request(), { requestId: 'c' });
    expect([file.cache, file.durationSeconds]).to.deep.equal(['hit', 2.5]);
    // A whole file's seconds, streamed from the cache.
    await cached.synthesize(request({ text: 'Other words.' }), { requestId: 'd' });
    const streamedFile = await cached.stream(request({ text: 'Other words.' }), { requestId: 'e' });
    await text(streamedFile);
    expect([streamedFile.cache, streamedFile.progress.durationSeconds]).to.deep.equal(['hit', 3]);
  });

  it('does not remember a stream the client left early', async () => {
    const { cached, calls } = fixture();
    const live = await cached.stream(request(), { requestId: 'a' });
    for await (const _piece of live.chunks) break;
    expect((await cached.stream(request(), { requestId: 'b' })).cache).to.equal('miss');
    expect(calls).to.have.length(2);
  });

  it('closes the live stream when its answer is closed before it was read', async () => {
    let closed = false;
    const live: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => ({ done: false, value: Buffer.from('audio') }),
        return: async () => {
          closed = true;
          return { done: true, value: undefined };
        },
      }),
    };
    const facts = { format: 'mp3' as const, applied: appliedPlan(), provider: 'acme', servedBy: 'm/v', instructionsIgnored: false };
    const synthesizer: Synthesizer = {
      synthesize: async () => Promise.reject(new Error('not called')),
      stream: async () => ({ ...facts, progress: { bytes: 0 }, chunks: live }),
    };
    const storage: CacheStorage = { read: async () => undefined, save: async () => Promise.reject(new Error('not called')) };
    const cached = new CachedSynthesis(synthesizer, new ResultCache({ maxBytes: 1000, ttlMs: 60_000 }), storage, QUIET_LOGGER, { maxStreamBytes: 1000 });
    const answer = await cached.stream(request(), { requestId: 'a' });
    await answer.chunks[Symbol.asyncIterator]().return?.(undefined);
    expect(closed).to.equal(true);
  });

  it('is bounded by the bytes of the files it points at', async () => {
    const { cached, calls } = fixture({ maxBytes: 40 });
    await cached.synthesize(request({ text: 'one' }), { requestId: 'a' });
    await cached.synthesize(request({ text: 'two' }), { requestId: 'b' });
    await cached.synthesize(request({ text: 'three' }), { requestId: 'c' });
    // 12 + 12 + 14 bytes fit; a fourth pushes the oldest out.
    await cached.synthesize(request({ text: 'four four four' }), { requestId: 'd' });
    expect((await cached.synthesize(request({ text: 'one' }), { requestId: 'e' })).cache).to.equal('miss');
    expect((await cached.synthesize(request({ text: 'four four four' }), { requestId: 'f' })).cache).to.equal('hit');
    expect(calls).to.have.length(5);
  });
});
