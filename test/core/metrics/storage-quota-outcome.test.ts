import { expect } from 'chai';
import { isGatewayError, StorageQuota, synthesisOutcomeOf } from '../../../core';

describe('core/metrics synthesisOutcomeOf: an account over its storage quota', () => {
  it('is not counted as `internal` (a bug): the account reached limits.storageBytes, as documented, with Retry-After', async () => {
    const quota = new StorageQuota({ storedBytes: async () => ({ bytes: 2_000, oldestExpiresAt: Date.now() + 60_000 }) }, 1_000);
    const refusal = await quota.check('account-1').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isGatewayError(refusal) && refusal.status).to.equal(507);
    expect(synthesisOutcomeOf(refusal)).to.equal('rate_limited');
  });
});
