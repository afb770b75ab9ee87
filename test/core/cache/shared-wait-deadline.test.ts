import { expect } from 'chai';
import { CachedSynthesis, ResultCache, type SynthesisStream } from '../../../core';
import { heldSynthesizer } from '../../support/held-synthesizer';
import { QUIET_LOGGER } from '../../support/quiet-logger';
import { memoryStorage, request } from './cache-test-support';

/** Each request's own deadline in these tests (`synthesis.timeout`). */
const TIMEOUT_MS = 200;
/** How long a test waits for an answer due at the deadline before it says there was none (instead of hanging). */
const NO_ANSWER_AFTER_MS = 10 * TIMEOUT_MS;

/** How a request ended: its cache status, its error's code and status, or that it had not ended long past its deadline. */
function ending(answer: Promise<{ cache: string }>): Promise<string> {
  const answered = answer.then(
    (result) => result.cache,
    (error: { code?: string; status?: number }) => (error.code ? `${error.code} ${error.status}` : 'failed'),
  );
  const stillWaiting = new Promise<string>((resolve) => setTimeout(() => resolve('still waiting'), NO_ANSWER_AFTER_MS).unref());
  return Promise.race([answered, stillWaiting]);
}

function fixture() {
  const storage = memoryStorage();
  const provider = heldSynthesizer(storage);
  const options = { maxStreamBytes: 1000, timeoutMs: TIMEOUT_MS };
  return { provider, cached: new CachedSynthesis(provider.synthesizer, new ResultCache({ maxBytes: 1_000_000, ttlMs: 60_000 }), storage, QUIET_LOGGER, options) };
}

/**
 * A request that waits for an identical synthesis under way waits within its own deadline: the
 * shared synthesis has only its starter's. At its deadline it answers 504 TTS_ERR_TIMEOUT; the
 * synthesis goes on for the others and is remembered for later requests.
 */
describe('core/cache CachedSynthesis: a request waiting for an identical synthesis, at its own deadline', () => {
  it('answers 504, file and stream alike, while the synthesis goes on and is remembered', async () => {
    const { provider, cached } = fixture();
    let firstEnded = false;
    const first = cached.synthesize(request(), { requestId: 'a' }).finally(() => (firstEnded = true));
    await provider.callsMade(1);
    const waiter = ending(cached.synthesize(request(), { requestId: 'b' }));
    const streamWaiter = ending(cached.stream(request(), { requestId: 'c' }) as Promise<SynthesisStream & { cache: string }>);
    expect({ file: await waiter, stream: await streamWaiter }).to.deep.equal({ file: 'TTS_ERR_TIMEOUT 504', stream: 'TTS_ERR_TIMEOUT 504' });
    expect(firstEnded, 'the shared synthesis still runs').to.equal(false);
    provider.calls[0].succeed();
    // Its starter is answered whenever it ends: a synthesis has its own deadline in the service.
    expect((await first).cache).to.equal('miss');
    expect((await cached.synthesize(request(), { requestId: 'd' })).cache).to.equal('hit');
    expect(provider.calls).to.have.length(1);
  });

  it('answers 504 for a synthesis it made itself after waiting for one that failed, which goes on for a later request', async () => {
    const { provider, cached } = fixture();
    const first = ending(cached.synthesize(request(), { requestId: 'a' }));
    await provider.callsMade(1);
    const waiter = ending(cached.synthesize(request(), { requestId: 'b' }));
    await provider.callsMade(1);
    provider.calls[0].fail();
    // The waiter makes the second call, started late: it ends past the waiter's own deadline.
    await provider.callsMade(2);
    expect({ first: await first, waiter: await waiter }).to.deep.equal({ first: 'failed', waiter: 'TTS_ERR_TIMEOUT 504' });
    const later = ending(cached.synthesize(request(), { requestId: 'c' }));
    await new Promise((resolve) => setImmediate(resolve));
    provider.calls[1].succeed();
    expect({ later: await later, calls: provider.calls.length }).to.deep.equal({ later: 'hit', calls: 2 });
  });
});
