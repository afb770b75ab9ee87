import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { CachedSynthesis, RedisResultIndex, RedisSharedFlight, resultCacheKey, type CacheStorage, type SynthesisRequest } from '../../../core';
import { heldSynthesizer, type HeldSynthesizer } from '../../support/held-synthesizer';
import { QUIET_LOGGER } from '../../support/quiet-logger';
import { sharedRedis } from '../../support/servers/shared-servers';
import { memoryStorage } from '../cache/cache-test-support';
import { readyClient } from './redis-test-clients';

const request: SynthesisRequest = { model: 'm', voice: 'v', text: 'Hello there.', speed: 1, pitch: 1, volume: 1, format: 'mp3' };

/** The waiting replica's own deadline in these tests (`synthesis.timeout`); the holder's has none. */
const TIMEOUT_MS = 200;
/** How long a test waits for an answer due at once or at the deadline before it says there was none (instead of hanging). */
const NO_ANSWER_AFTER_MS = 10 * TIMEOUT_MS;

/** How a request ended: its cache status, its error's code and status, `cancel reason`, or that it had not ended long after it should have. */
function ending(answer: Promise<{ cache: string }>, cancelReason?: unknown): Promise<string> {
  const answered = answer.then(
    (result) => result.cache,
    (error: { code?: string; status?: number }) => (error === cancelReason ? 'cancel reason' : error.code ? `${error.code} ${error.status}` : 'failed'),
  );
  const stillWaiting = new Promise<string>((resolve) => setTimeout(() => resolve('still waiting'), NO_ANSWER_AFTER_MS).unref());
  return Promise.race([answered, stillWaiting]);
}

/**
 * A request waiting for another replica's single-flight lock waits within its own limits, as one
 * waiting for an identical synthesis in its own process does (SharedWait): its client leaving
 * stops it with its reason, its deadline with 504. The holder's synthesis goes on and is
 * remembered, its lock is neither broken by the waiter nor left held; a lock the waiter takes
 * after it stopped waiting is given back at once.
 */
describe('core/redis shared flight: a request waiting for another replica, within its own limits', () => {
  const closing: (() => unknown)[] = [];
  afterEach(async () => {
    await Promise.allSettled(closing.splice(0).map((close) => close()));
  });

  async function replica(url: string, prefix: string, storage: CacheStorage, provider: HeldSynthesizer, timeoutMs?: number) {
    const commands = await readyClient(url);
    closing.push(() => commands.disconnect());
    const flight = new RedisSharedFlight({ client: commands, url, keyPrefix: prefix, pollMs: 50 });
    closing.push(() => flight.close());
    const index = new RedisResultIndex(commands, { keyPrefix: prefix, maxBytes: 1_000_000, ttlMs: 60_000 });
    const cached = new CachedSynthesis(provider.synthesizer, index, storage, QUIET_LOGGER, { maxStreamBytes: 1000, sharedFlight: flight, ...(timeoutMs !== undefined && { timeoutMs }) });
    return { commands, flight, cached };
  }

  /** Two replicas on one Redis and one provider (held), the second with `waiterTimeoutMs`; and whether the key's lock is held. */
  async function twoReplicas(waiterTimeoutMs: number | undefined = TIMEOUT_MS) {
    const { url } = await sharedRedis();
    const prefix = `${randomUUID()}:`;
    const storage = memoryStorage();
    const provider = heldSynthesizer(storage);
    const [holding, waiting] = await Promise.all([replica(url, prefix, storage, provider), replica(url, prefix, storage, provider, waiterTimeoutMs)]);
    const lock = `${prefix}cache:lock:${resultCacheKey(request)}`;
    const lockHeld = async (): Promise<boolean> => (await holding.commands.exists(lock)) === 1;
    return { url, provider, holding, waiting, lock, lockHeld };
  }

  /** `lookedAt` resolves once a replica looks whether `lock` is still held: it is waiting for it (seen by Redis's MONITOR). */
  async function watching(url: string, lock: string): Promise<{ lookedAt: Promise<void> }> {
    const client = await readyClient(url);
    closing.push(() => client.disconnect());
    const monitor = await client.monitor();
    closing.push(() => monitor.disconnect());
    const lookedAt = new Promise<void>((resolve) => {
      monitor.on('monitor', (_time: string, args: string[]) => {
        if (args[0]?.toLowerCase() === 'exists' && args[1] === lock) resolve();
      });
    });
    return { lookedAt };
  }

  it("the client leaving ends the wait with its reason; the holder's synthesis is remembered and its lock released", async () => {
    // No deadline for the waiter: only its client's leaving ends its wait.
    const { url, provider, holding, waiting, lock, lockHeld } = await twoReplicas(undefined);
    const lockWatch = await watching(url, lock);
    const first = holding.cached.synthesize(request, { requestId: 'a' });
    await provider.callsMade(1);
    const client = new AbortController();
    const reason = new Error('the client left');
    const waiter = ending(waiting.cached.synthesize(request, { requestId: 'b', signal: client.signal }), reason);
    await lockWatch.lookedAt;
    client.abort(reason);
    expect({ waiter: await waiter, lockHeld: await lockHeld() }).to.deep.equal({ waiter: 'cancel reason', lockHeld: true });
    provider.calls[0].succeed();
    expect((await first).cache).to.equal('miss');
    expect({ lockHeld: await lockHeld(), later: (await waiting.cached.synthesize(request, { requestId: 'c' })).cache, calls: provider.calls.length }).to.deep.equal({ lockHeld: false, later: 'hit', calls: 1 });
  });

  it("its deadline passing answers 504; the holder's synthesis is remembered and its lock released", async () => {
    const { provider, holding, waiting, lockHeld } = await twoReplicas();
    const first = holding.cached.synthesize(request, { requestId: 'a' });
    await provider.callsMade(1);
    const waiter = ending(waiting.cached.synthesize(request, { requestId: 'b' }));
    expect({ waiter: await waiter, lockHeld: await lockHeld() }).to.deep.equal({ waiter: 'TTS_ERR_TIMEOUT 504', lockHeld: true });
    provider.calls[0].succeed();
    expect((await first).cache).to.equal('miss');
    expect({ lockHeld: await lockHeld(), later: (await waiting.cached.synthesize(request, { requestId: 'c' })).cache, calls: provider.calls.length }).to.deep.equal({ lockHeld: false, later: 'hit', calls: 1 });
  });

  it('one that makes the synthesis itself after the holder failed is answered 504 at its deadline; that synthesis is remembered', async () => {
    const { provider, holding, waiting, lockHeld } = await twoReplicas();
    const first = ending(holding.cached.synthesize(request, { requestId: 'a' }));
    await provider.callsMade(1);
    const waiter = ending(waiting.cached.synthesize(request, { requestId: 'b' }));
    provider.calls[0].fail();
    // The waiter takes the lock and makes the second call, started late: it ends past the waiter's deadline.
    await provider.callsMade(2);
    expect({ first: await first, waiter: await waiter }).to.deep.equal({ first: 'failed', waiter: 'TTS_ERR_TIMEOUT 504' });
    provider.calls[1].succeed();
    expect(await ending(holding.cached.synthesize(request, { requestId: 'c' }))).to.equal('hit');
    expect({ lockHeld: await lockHeld(), calls: provider.calls.length }).to.deep.equal({ lockHeld: false, calls: 2 });
  });

  it('a lock taken after its waiter stopped waiting is released at once', async () => {
    const { holding, lockHeld } = await twoReplicas();
    const stop = new AbortController();
    const reason = new Error('the client left');
    // The lock is free: the command that takes it is on its way when the waiter stops.
    const taking = holding.flight.acquire(resultCacheKey(request), stop.signal);
    stop.abort(reason);
    const outcome = await taking.then(
      (release) => (release ? 'taken' : 'not taken'),
      (error: unknown) => (error === reason ? 'stopped' : 'failed'),
    );
    expect({ outcome, lockHeld: await lockHeld() }).to.deep.equal({ outcome: 'stopped', lockHeld: false });
  });
});
