import { expect } from 'chai';
import { CachedSynthesis, ResultCache } from '../../../core';
import { failingFirstSynthesizer } from '../../support/failing-first-synthesizer';
import { QUIET_LOGGER } from '../../support/quiet-logger';
import { memoryStorage, request } from './cache-test-support';

/**
 * Identical requests in one process wait for the synthesis under way. When it fails, those that
 * waited must not each call the (already failing) provider at once: one makes the result, the
 * others wait for it.
 */
describe('core/cache CachedSynthesis: requests that waited for an identical synthesis that failed', () => {
  it('make one provider call together, not one each', async () => {
    const storage = memoryStorage();
    const provider = failingFirstSynthesizer(storage, 20);
    const cached = new CachedSynthesis(provider.synthesizer, new ResultCache({ maxBytes: 1_000_000, ttlMs: 60_000 }), storage, QUIET_LOGGER, { maxStreamBytes: 1000 });
    const first = cached.synthesize(request(), { requestId: 'a' }).then(
      () => 'ok',
      () => 'failed',
    );
    const waiters = ['b', 'c', 'd'].map((requestId) => cached.synthesize(request(), { requestId }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(provider.counts.calls).to.equal(1);
    provider.failFirst();
    expect(await first).to.equal('failed');
    const answers = await Promise.all(waiters);
    expect({ ...provider.counts, cache: answers.map((answer) => answer.cache).sort() }).to.deep.equal({ calls: 2, mostAtOnce: 1, cache: ['hit', 'hit', 'miss'] });
  });
});
