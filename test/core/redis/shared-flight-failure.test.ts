import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { CachedSynthesis, RedisResultIndex, RedisSharedFlight, type CacheStorage, type SynthesisRequest } from '../../../core';
import { failingFirstSynthesizer } from '../../support/failing-first-synthesizer';
import { eventually } from '../../support/eventually';
import { QUIET_LOGGER } from '../../support/quiet-logger';
import { sharedRedis } from '../../support/servers/shared-servers';
import { readyClient } from './redis-test-clients';

const request: SynthesisRequest = { model: 'm', voice: 'v', text: 'Hello there.', speed: 1, pitch: 1, volume: 1, format: 'mp3' };

function sharedStorage(): CacheStorage {
  const files = new Map<string, Uint8Array>();
  return {
    read: async (fileName) => files.get(fileName),
    save: async (audio, format) => {
      const fileName = `${randomUUID()}.${format}`;
      files.set(fileName, audio);
      return { fileName, size: audio.byteLength };
    },
  };
}

describe('core/redis shared flight when the holder fails', () => {
  const closing: (() => unknown)[] = [];
  afterEach(async () => {
    await Promise.allSettled(closing.splice(0).map((close) => close()));
  });

  it('the replicas that waited for a failed holder make one provider call together, not one each', async () => {
    const { url } = await sharedRedis();
    const prefix = `${randomUUID()}:`;
    const storage = sharedStorage();
    // The provider: the first call (the holder's) fails when told to; the next ones succeed after a moment.
    const provider = failingFirstSynthesizer(storage, 100);
    const replicas = await Promise.all(
      [0, 1, 2].map(async () => {
        const commands = await readyClient(url);
        closing.push(() => commands.disconnect());
        const flight = new RedisSharedFlight({ client: commands, url, keyPrefix: prefix, pollMs: 50 });
        closing.push(() => flight.close());
        const index = new RedisResultIndex(commands, { keyPrefix: prefix, maxBytes: 1_000_000, ttlMs: 60_000 });
        return new CachedSynthesis(provider.synthesizer, index, storage, QUIET_LOGGER, { maxStreamBytes: 1000, sharedFlight: flight });
      }),
    );
    // Give the subscribers a moment to be subscribed to the release channel.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const holder = replicas[0].synthesize(request, { requestId: 'a' }).then(
      () => 'ok',
      () => 'failed',
    );
    await eventually(() => {
      expect(provider.counts.calls).to.equal(1);
    });
    // B and C arrive while A holds the lock: they wait for it.
    const waiters = [replicas[1].synthesize(request, { requestId: 'b' }), replicas[2].synthesize(request, { requestId: 'c' })];
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(provider.counts.calls).to.equal(1);
    provider.failFirst();
    expect(await holder).to.equal('failed');
    const answers = await Promise.all(waiters);
    // Single flight: after the failure, one of the waiters makes the result and the other finds it.
    expect({ ...provider.counts, cache: answers.map((answer) => answer.cache).sort() }).to.deep.equal({ calls: 2, mostAtOnce: 1, cache: ['hit', 'miss'] });
  });
});
