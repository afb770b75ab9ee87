import { expect } from 'chai';
import type { LimitValues, LimitsConfig } from '../../../config/types';
import { MemoryWindowCounters, SynthesisLimiter } from '../../../core';

describe('core/limits SynthesisLimiter', () => {
  // 2025-03-01T23:00:00Z: one hour before the daily quotas reset.
  const clock = Date.UTC(2025, 2, 1, 23, 0, 0);
  const caller = { accountId: 'account-1', keyId: 'key-1' };
  let overrides: Record<string, LimitValues>;
  beforeEach(() => {
    overrides = {};
  });

  const limiter = (limits: LimitsConfig) =>
    new SynthesisLimiter({ limits, counters: new MemoryWindowCounters(), accountLimits: async (accountId) => overrides[accountId] ?? {}, now: () => clock });

  it('applies no limit by default', async () => {
    const verdict = await limiter({ perKey: {} }).admit(caller, 10_000);
    expect(verdict.limits).to.deep.equal([]);
    expect(verdict.refusal).to.equal(undefined);
  });

  it('counts requests per minute and refuses the one over the limit with 429 and Retry-After', async () => {
    const subject = limiter({ requestsPerMinute: 2, perKey: {} });
    const first = await subject.admit(caller, 5);
    expect(first.limits).to.deep.equal([{ name: 'account-minute', unit: 'requests', quota: 2, windowSeconds: 60, remaining: 1, resetSeconds: 60 }]);
    expect((await subject.admit(caller, 5)).limits[0].remaining).to.equal(0);
    const third = await subject.admit(caller, 5);
    expect(third.refusal?.code).to.equal('TTS_ERR_RATE_LIMITED');
    expect(third.refusal?.status).to.equal(429);
    expect(third.refusal?.retryAfterSeconds).to.equal(60);
    expect(third.refusal?.message).to.equal('The gateway (this account: 2 synthesis requests per minute) rate limit reached; retry after 60 s');
    expect(third.limits[0].remaining).to.equal(0);
    expect((await subject.admit({ accountId: 'account-2', keyId: 'key-2' }, 5)).refusal).to.equal(undefined);
  });

  it('refuses a request that would exceed the daily characters before it is counted, until UTC midnight', async () => {
    const subject = limiter({ charactersPerDay: 100, perKey: {} });
    expect((await subject.admit(caller, 60)).limits[0]).to.include({ name: 'account-day', unit: 'characters', remaining: 40, resetSeconds: 3600, windowSeconds: 86_400 });
    const refused = await subject.admit(caller, 41);
    expect(refused.refusal?.retryAfterSeconds).to.equal(3600);
    expect(refused.refusal?.message).to.include('100 characters per day, 40 left, 41 asked');
    // Nothing of the refused request was counted: 40 still fit.
    expect((await subject.admit(caller, 40)).limits[0].remaining).to.equal(0);
  });

  it('gives a failed request its characters back, once', async () => {
    const subject = limiter({ charactersPerDay: 100, perKey: {} });
    const verdict = await subject.admit(caller, 70);
    await verdict.refundCharacters();
    await verdict.refundCharacters();
    expect((await subject.admit(caller, 100)).limits[0].remaining).to.equal(0);
  });

  it('lets an account override the defaults, and caps each key on its own', async () => {
    overrides['account-1'] = { requestsPerMinute: 1 };
    const subject = limiter({ requestsPerMinute: 50, perKey: { requestsPerMinute: 3 } });
    const first = await subject.admit(caller, 1);
    expect(first.limits.map((limit) => [limit.name, limit.quota])).to.deep.equal([
      ['account-minute', 1],
      ['key-minute', 3],
    ]);
    const second = await subject.admit({ accountId: 'account-1', keyId: 'key-2' }, 1);
    expect(second.refusal?.message).to.match(/^The gateway \(this account: 1 synthesis requests per minute\)/);
    const other = { accountId: 'account-2', keyId: 'key-9' };
    for (let index = 0; index < 3; index += 1) expect((await subject.admit(other, 1)).refusal).to.equal(undefined);
    const capped = await subject.admit(other, 1);
    expect(capped.refusal?.message).to.match(/^The gateway \(this API key: 3 synthesis requests per minute\)/);
    expect(capped.refusal?.details.map((detail) => detail.policy)).to.deep.equal(['key-minute']);
  });

  it('never counts a refused request against a concurrent one: a small request fits beside a large one refused', async () => {
    const subject = limiter({ requestsPerMinute: 3, charactersPerDay: 1000, perKey: {} });
    expect((await subject.admit(caller, 900)).refusal).to.equal(undefined);
    // Arriving together: the large request is over the characters; the small ones fit in both limits.
    const [large, small, smallest] = await Promise.all([subject.admit(caller, 500), subject.admit(caller, 50), subject.admit(caller, 1)]);
    expect(large.refusal?.details.map((detail) => detail.policy)).to.deep.equal(['account-day']);
    expect(small.refusal).to.equal(undefined);
    expect(smallest.refusal).to.equal(undefined);
    // A refusal reports the count without itself: 1000 - 900 = 100 left before the two small ones.
    expect(large.limits.find((limit) => limit.name === 'account-day')?.remaining).to.equal(100);
    // The window now holds 3 requests and 951 characters: the next request is over the minute.
    expect((await subject.admit(caller, 1)).refusal?.details.map((detail) => detail.policy)).to.deep.equal(['account-minute']);
  });

  it('retries a quota the request alone exceeds after a whole window, not at once', async () => {
    const refused = await limiter({ requestsPerMinute: 0, perKey: {} }).admit(caller, 1);
    expect(refused.refusal?.retryAfterSeconds).to.equal(60);
    expect(refused.limits[0]).to.include({ remaining: 0, resetSeconds: 60 });
  });
});

