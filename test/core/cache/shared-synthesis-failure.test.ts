import { expect } from 'chai';
import { CachedSynthesis, ResultCache, type SynthesisResult, type Synthesizer } from '../../../core';
import { appliedPlan } from '../../support/applied-plan';
import { QUIET_LOGGER } from '../../support/quiet-logger';
import { memoryStorage, request } from './cache-test-support';

const facts = { format: 'mp3' as const, applied: appliedPlan(), provider: 'acme', servedBy: 'm/v', instructionsIgnored: false };

/**
 * Identical requests in one process wait for the synthesis under way. When it fails, those that
 * waited must not each call the (already failing) provider at once: one makes the result, the
 * others wait for it.
 */
describe('core/cache CachedSynthesis: requests that waited for an identical synthesis that failed', () => {
  it('make one provider call together, not one each', async () => {
    const storage = memoryStorage();
    let calls = 0;
    let running = 0;
    let mostAtOnce = 0;
    let failFirst!: () => void;
    const firstFails = new Promise<void>((resolve) => (failFirst = resolve));
    const synthesizer: Synthesizer = {
      synthesize: async () => {
        calls += 1;
        const call = calls;
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        try {
          if (call === 1) {
            await firstFails;
            throw new Error('provider unavailable');
          }
          await new Promise((resolve) => setTimeout(resolve, 20));
          return { ...(await storage.save(Buffer.from('audio'), 'mp3')), ...facts } satisfies SynthesisResult;
        } finally {
          running -= 1;
        }
      },
      stream: async () => Promise.reject(new Error('not used')),
    };
    const cached = new CachedSynthesis(synthesizer, new ResultCache({ maxBytes: 1_000_000, ttlMs: 60_000 }), storage, QUIET_LOGGER, { maxStreamBytes: 1000 });
    const first = cached.synthesize(request(), { requestId: 'a' }).then(
      () => 'ok',
      () => 'failed',
    );
    const waiters = ['b', 'c', 'd'].map((requestId) => cached.synthesize(request(), { requestId }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).to.equal(1);
    failFirst();
    expect(await first).to.equal('failed');
    const answers = await Promise.all(waiters);
    expect({ calls, mostAtOnce, cache: answers.map((answer) => answer.cache).sort() }).to.deep.equal({ calls: 2, mostAtOnce: 1, cache: ['hit', 'hit', 'miss'] });
  });
});
