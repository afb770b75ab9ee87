import { expect } from 'chai';
import { CachedSynthesis, gatewayError, GatewayError, ResultCache, type CacheStorage, type SynthesisRequest, type SynthesisResult, type SynthesisStream, type Synthesizer } from '../../../core';
import { appliedPlan } from '../../support/applied-plan';
import { QUIET_LOGGER } from '../../support/quiet-logger';
import { memoryStorage, request, text } from './cache-test-support';

/** What a store says when it cannot answer now (S3's SlowDown, a disk's EIO): worth another try later. */
const storageUnavailable = () => gatewayError('TTS_ERR_UNAVAILABLE', { provider: "The gateway's audio storage", reason: 'S3 answered SlowDown (HTTP 503)' });

/** A result cache that counts the entries it was told to forget. */
class CountingIndex extends ResultCache {
  forgotten = 0;
  override forget(key: string): void {
    this.forgotten += 1;
    super.forget(key);
  }
}

/**
 * A cache over a storage that fails on demand, with or without `share` (the folder store has it,
 * S3 has not), in front of a synthesizer that fails on demand.
 */
function fixture(options: { sharing: boolean }) {
  const files = new Map<string, Uint8Array>();
  const inner = memoryStorage(files);
  const failing = { storage: false, synthesizer: false };
  const failIfAsked = async (): Promise<void> => {
    if (failing.storage) throw storageUnavailable();
  };
  const storage: CacheStorage = {
    read: async (fileName) => {
      await failIfAsked();
      return inner.read(fileName);
    },
    save: (audio, format, sampleRate, owner) => inner.save(audio, format, sampleRate, owner),
    ...(options.sharing && {
      share: async (fileName: string) => {
        await failIfAsked();
        const bytes = files.get(fileName);
        return bytes && inner.save(bytes, 'mp3');
      },
    }),
  };
  const calls: SynthesisRequest[] = [];
  const facts = { format: 'mp3' as const, applied: appliedPlan(), provider: 'acme', servedBy: 'm/v', instructionsIgnored: false };
  const synthesizer: Synthesizer = {
    synthesize: async (synthesisRequest) => {
      calls.push(synthesisRequest);
      if (failing.synthesizer) throw new GatewayError('TTS_ERR_UPSTREAM', 'the provider broke');
      const saved = await inner.save(Buffer.from(`audio of ${synthesisRequest.text}`), 'mp3');
      return { ...saved, ...facts } satisfies SynthesisResult;
    },
    stream: async (synthesisRequest) => {
      calls.push(synthesisRequest);
      const progress = { bytes: 0 };
      async function* chunks() {
        progress.bytes += 4;
        yield Buffer.from('live');
      }
      return { ...facts, progress, chunks: chunks() } satisfies SynthesisStream;
    },
  };
  const index = new CountingIndex({ maxBytes: 1_000_000, ttlMs: 60_000 });
  return { cached: new CachedSynthesis(synthesizer, index, storage, QUIET_LOGGER, { maxStreamBytes: 1000 }), index, files, failing, calls };
}

const codeOf = (answer: Promise<unknown>): Promise<string> =>
  answer.then(
    () => 'answered',
    (error: GatewayError) => error.code,
  );

describe('core/cache CachedSynthesis: a hit whose stored bytes cannot be read', () => {
  for (const sharing of [false, true]) {
    const store = sharing ? 'a store that shares names (the folder)' : 'a store that is read and saved again (S3)';

    it(`${store}: a passing failure is a miss for that request, and the entry stays for the next`, async () => {
      const { cached, index, failing, calls } = fixture({ sharing });
      expect((await cached.synthesize(request(), { requestId: 'first' })).cache).to.equal('miss');
      // The store fails: the request is synthesized rather than failed.
      failing.storage = true;
      expect((await cached.synthesize(request(), { requestId: 'store down' })).cache).to.equal('miss');
      expect(calls).to.have.length(2);
      // The store and the provider fail: the provider's failure is the answer, and nothing is forgotten.
      failing.synthesizer = true;
      expect(await codeOf(cached.synthesize(request(), { requestId: 'both down' }))).to.equal('TTS_ERR_UPSTREAM');
      expect(index.forgotten).to.equal(0);
      // The store is back (the provider still down): a hit.
      failing.storage = false;
      expect((await cached.synthesize(request(), { requestId: 'store back' })).cache).to.equal('hit');
    });
  }

  it('a stream hit whose read fails for now streams the live synthesis, and keeps the entry', async () => {
    const { cached, index, failing } = fixture({ sharing: false });
    await cached.synthesize(request(), { requestId: 'first' });
    failing.storage = true;
    const live = await cached.stream(request(), { requestId: 'store down' });
    expect(live.cache).to.equal('miss');
    expect(await text(live)).to.equal('live');
    expect(index.forgotten).to.equal(0);
  });

  it('a file that is gone (the store answers none) drops the entry', async () => {
    for (const sharing of [false, true]) {
      const { cached, index, files } = fixture({ sharing });
      await cached.synthesize(request(), { requestId: 'first' });
      files.clear();
      expect((await cached.synthesize(request(), { requestId: 'gone' })).cache).to.equal('miss');
      expect(index.forgotten, sharing ? 'sharing' : 'read').to.equal(1);
    }
  });
});
