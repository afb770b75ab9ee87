import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { CachedSynthesis, RedisResultIndex, RedisSharedFlight, resultCacheKey, type CachedResult, type CacheStorage, type SynthesisRequest, type SynthesisResult, type Synthesizer } from '../../../core';
import { appliedPlan } from '../../support/applied-plan';
import { eventually } from '../../support/eventually';
import { ownRedis, sharedRedis } from '../../support/servers/shared-servers';
import { connected, disconnected, readyClient, recordingLogger } from './redis-test-clients';
import { QUIET_LOGGER } from '../../support/quiet-logger';

const request = (text = 'Hello there.'): SynthesisRequest => ({ model: 'm', voice: 'v', text, speed: 1, pitch: 1, volume: 1, format: 'mp3' });
const facts = { format: 'mp3' as const, applied: appliedPlan(), provider: 'acme', servedBy: 'm/v', instructionsIgnored: false };

/** The audio store the replicas share (S3 in production), as a map of files. */
function sharedStorage(): CacheStorage & { files: Map<string, Uint8Array> } {
  const files = new Map<string, Uint8Array>();
  return {
    files,
    read: async (fileName) => files.get(fileName),
    save: async (audio, format) => {
      const fileName = `${randomUUID()}.${format}`;
      files.set(fileName, audio);
      return { fileName, size: audio.byteLength };
    },
  };
}

/** The providers behind every replica: counts calls, answers when `gate` opens. */
function upstream(storage: CacheStorage) {
  const calls: string[] = [];
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const synthesizer: Synthesizer = {
    synthesize: async (synthesisRequest) => {
      calls.push(synthesisRequest.text);
      await gate;
      return { ...(await storage.save(Buffer.from(`audio of ${synthesisRequest.text}`), 'mp3')), ...facts } satisfies SynthesisResult;
    },
    stream: async () => {
      throw new Error('not used');
    },
  };
  return { synthesizer, calls, open };
}

describe('core/redis result cache index and single-flight across replicas', () => {
  const closing: (() => unknown)[] = [];
  afterEach(async () => {
    await Promise.allSettled(closing.splice(0).map((close) => close()));
  });

  async function client(url: string, logger?: ReturnType<typeof recordingLogger>): Promise<Redis> {
    const made = await readyClient(url, logger, 'redis (limits, result cache)');
    closing.push(() => made.disconnect());
    return made;
  }

  async function replica(url: string, prefix: string, storage: CacheStorage, synthesizer: Synthesizer, options: { lockTtlMs?: number; logger?: ReturnType<typeof recordingLogger> } = {}) {
    const commands = await client(url, options.logger);
    const flight = new RedisSharedFlight({ client: commands, url, keyPrefix: prefix, lockTtlMs: options.lockTtlMs, pollMs: 50 });
    closing.push(() => flight.close());
    const index = new RedisResultIndex(commands, { keyPrefix: prefix, maxBytes: 1_000_000, ttlMs: 60_000 });
    return { commands, flight, index, cached: new CachedSynthesis(synthesizer, index, storage, QUIET_LOGGER, { maxStreamBytes: 1000, sharedFlight: flight }) };
  }

  it('a result made on A is a hit on B: B copies the stored bytes to a file of its own, no provider called', async () => {
    const { url } = await sharedRedis();
    const prefix = `${randomUUID()}:`;
    const storage = sharedStorage();
    const provider = upstream(storage);
    provider.open();
    const [a, b] = await Promise.all([replica(url, prefix, storage, provider.synthesizer), replica(url, prefix, storage, provider.synthesizer)]);
    const made = await a.cached.synthesize(request(), { requestId: 'a', accountId: 'alice' });
    const repeated = await b.cached.synthesize(request(' Hello   there. '), { requestId: 'b', accountId: 'bob' });
    expect([made.cache, repeated.cache]).to.deep.equal(['miss', 'hit']);
    expect(provider.calls).to.have.length(1);
    expect(repeated.fileName).to.not.equal(made.fileName);
    expect(Buffer.from(storage.files.get(repeated.fileName)!).equals(Buffer.from(storage.files.get(made.fileName)!))).to.equal(true);
    expect(repeated).to.deep.include({ servedBy: 'm/v', provider: 'acme', size: made.size });
  });

  it('6 identical concurrent requests on two replicas make one provider call', async () => {
    const { url } = await sharedRedis();
    const prefix = `${randomUUID()}:`;
    const storage = sharedStorage();
    const provider = upstream(storage);
    const [a, b] = await Promise.all([replica(url, prefix, storage, provider.synthesizer), replica(url, prefix, storage, provider.synthesizer)]);
    const answers = Array.from({ length: 6 }, (_, index) => (index % 2 === 0 ? a : b).cached.synthesize(request(), { requestId: `r${index}` }));
    // The first call holds the lock until the provider answers; the others wait on it.
    await eventually(() => {
      expect(provider.calls).to.have.length(1);
    });
    provider.open();
    const results = await Promise.all(answers);
    expect(provider.calls).to.have.length(1);
    expect(results.filter((result) => result.cache === 'miss')).to.have.length(1);
    expect(new Set(results.map((result) => result.fileName)).size).to.equal(6);
  });

  it('when the lock holder dies its lock expires and another replica makes the result', async () => {
    const { url } = await sharedRedis();
    const prefix = `${randomUUID()}:`;
    const storage = sharedStorage();
    const provider = upstream(storage);
    provider.open();
    const dying = await replica(url, prefix, storage, provider.synthesizer, { lockTtlMs: 300 });
    const survivor = await replica(url, prefix, storage, provider.synthesizer, { lockTtlMs: 300 });
    // A takes the lock for the request and dies before it releases it (no renewals, no message).
    expect(await dying.flight.acquire(resultCacheKey(request()))).to.be.a('function');
    dying.commands.disconnect();
    const result = await survivor.cached.synthesize(request(), { requestId: 'b' });
    expect(result.cache).to.equal('miss');
    expect(provider.calls).to.have.length(1);
  });

  it('keeps the bytes of the indexed files under maxBytes, oldest out first, and drops sizes of expired entries', async () => {
    const { url } = await sharedRedis();
    const prefix = `${randomUUID()}:`;
    const commands = await client(url);
    let now = 1_000_000;
    const index = new RedisResultIndex(commands, { keyPrefix: prefix, maxBytes: 250, ttlMs: 10_000, now: () => now });
    const entry = (fileName: string, size: number): CachedResult => ({ fileName, size, ...facts });
    await index.set('first', entry('1.mp3', 100));
    now += 1;
    await index.set('second', entry('2.mp3', 100));
    expect((await index.get('first'))?.fileName).to.equal('1.mp3');
    now += 1;
    await index.set('third', entry('3.mp3', 100));
    expect(await index.get('first')).to.equal(undefined);
    expect((await index.get('second'))?.fileName).to.equal('2.mp3');
    expect(await commands.get(`${prefix}cache:bytes`)).to.equal('200');
    // An entry lives as long as the configured age in Redis.
    expect(await commands.pttl(`${prefix}cache:entry:third`)).to.be.within(1, 10_000);
    // Bigger than the whole cache: not kept.
    await index.set('huge', entry('4.mp3', 251));
    expect(await index.get('huge')).to.equal(undefined);
    await index.forget('second');
    expect(await commands.get(`${prefix}cache:bytes`)).to.equal('100');
    // Past the age of `third`, its size no longer counts: two new entries fit.
    now += 20_000;
    await index.set('fourth', entry('5.mp3', 120));
    await index.set('fifth', entry('6.mp3', 120));
    expect(await commands.get(`${prefix}cache:bytes`)).to.equal('240');
    expect((await index.get('fourth'))?.fileName).to.equal('5.mp3');
  });

  it('Redis away: requests are synthesized (cache bypassed, one warning); once it is back, hits are shared again', async () => {
    const redis = await ownRedis();
    const prefix = `${randomUUID()}:`;
    const storage = sharedStorage();
    const provider = upstream(storage);
    provider.open();
    const logger = recordingLogger();
    const a = await replica(redis.url, prefix, storage, provider.synthesizer, { logger });
    const b = await replica(redis.url, prefix, storage, provider.synthesizer);
    await a.cached.synthesize(request(), { requestId: 'before' });
    await redis.stop();
    await Promise.all([disconnected(a.commands), disconnected(b.commands)]);
    const during = [];
    for (const replicaNow of [a, b, a, b]) during.push(await replicaNow.cached.synthesize(request('During the outage.'), { requestId: 'during' }));
    expect(during.map((result) => result.cache)).to.deep.equal(['miss', 'miss', 'miss', 'miss']);
    expect(provider.calls).to.have.length(5);
    await eventually(() => {
      expect(logger.warnings).to.have.length(1);
    }, 500);
    await redis.resume();
    await Promise.all([connected(a.commands), connected(b.commands)]);
    // The restarted Redis is empty: A makes it once, B finds it.
    expect((await a.cached.synthesize(request('After.'), { requestId: 'after-a' })).cache).to.equal('miss');
    expect((await b.cached.synthesize(request('After.'), { requestId: 'after-b' })).cache).to.equal('hit');
    expect(provider.calls).to.have.length(6);
    expect(logger.warnings).to.have.length(1);
  });
});
