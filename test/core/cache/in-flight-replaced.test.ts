import { expect } from 'chai';
import { CachedSynthesis, ResultCache } from '../../../core';
import { heldSynthesizer } from '../../support/held-synthesizer';
import { QUIET_LOGGER } from '../../support/quiet-logger';
import { memoryStorage, request } from './cache-test-support';

const outcome = (answer: Promise<{ cache: string }>): Promise<string> =>
  answer.then(
    (result) => result.cache,
    () => 'failed',
  );

/**
 * After two shared syntheses failed, each request that waited for both makes its own: the last
 * one listed is the one a later identical request joins. An earlier one that ends must not take
 * the later one's place away, or that request calls the provider a second time alongside it.
 */
describe('core/cache CachedSynthesis: a synthesis under way replaced by a newer identical one', () => {
  it('is not unlisted by the older one ending: a later identical request joins the newer one', async () => {
    const storage = memoryStorage();
    const provider = heldSynthesizer(storage);
    const cached = new CachedSynthesis(provider.synthesizer, new ResultCache({ maxBytes: 1_000_000, ttlMs: 60_000 }), storage, QUIET_LOGGER, { maxStreamBytes: 1000 });
    const first = outcome(cached.synthesize(request(), { requestId: 'a' }));
    await provider.callsMade(1);
    const [second, third, fourth] = ['b', 'c', 'd'].map((requestId) => outcome(cached.synthesize(request(), { requestId })));
    await provider.callsMade(1);
    provider.calls[0].fail();
    // The first to wake makes the second call; the other two wait for it.
    await provider.callsMade(2);
    provider.calls[1].fail();
    // Both waited two rounds: each makes its own, the fourth's listed last.
    await provider.callsMade(4);
    provider.calls[2].fail();
    expect([await first, await second, await third]).to.deep.equal(['failed', 'failed', 'failed']);
    const fifth = outcome(cached.synthesize(request(), { requestId: 'e' }));
    await new Promise((resolve) => setImmediate(resolve));
    provider.calls[3].succeed();
    provider.calls[4]?.succeed();
    expect({ calls: provider.calls.length, fourth: await fourth, fifth: await fifth }).to.deep.equal({ calls: 4, fourth: 'miss', fifth: 'hit' });
  });
});
