import { expect } from 'chai';
import type { AccountStore, ApiKeyRecord } from '../../../core';
import { accountRecord, keyRecord, type StoreUnderTest } from './account-store-contract';

const NOW = 1_760_000_000_000;

/**
 * AccountStore.createApiKeyWithinCap, run against every implementation: the count, the eviction
 * of login keys and the insert happen as one, so that keys made at once never pass the cap.
 */
export function describeKeyCapContract(name: string, open: () => Promise<StoreUnderTest>): void {
  describe(`AccountStore key cap: ${name}`, function () {
    let subject: StoreUnderTest;
    let store: AccountStore;
    let accountId: string;
    beforeEach(async () => {
      subject = await open();
      store = subject.store;
      const account = accountRecord('capped@example.com');
      accountId = account.id;
      expect(await store.createAccountWithKey(account, keyRecord(account.id, { name: 'registration', createdAt: NOW - 10_000 }))).to.equal('created');
    });
    afterEach(() => subject.release());

    const liveIds = async (): Promise<string[]> =>
      (await store.listApiKeys(accountId)).filter((key) => key.revokedAt === null && (key.expiresAt == null || key.expiresAt > NOW)).map((key) => key.id);
    const loginKey = (createdAt: number): ApiKeyRecord => keyRecord(accountId, { name: 'login', createdAt, expiresAt: NOW + 1_000_000, madeByLogin: true });

    it('refuses a key at the cap and stores nothing; revoked and expired keys do not count', async () => {
      await store.createApiKey(keyRecord(accountId, { createdAt: NOW - 9_000, revokedAt: NOW - 1 }));
      await store.createApiKey(keyRecord(accountId, { createdAt: NOW - 8_000, expiresAt: NOW }));
      const second = keyRecord(accountId, { createdAt: NOW - 7_000 });
      expect(await store.createApiKeyWithinCap(second, { maxLiveKeys: 3, evictLoginKeys: false, now: NOW })).to.deep.equal({ outcome: 'created', evictedKeyIds: [] });
      await store.createApiKeyWithinCap(keyRecord(accountId, { createdAt: NOW - 6_000 }), { maxLiveKeys: 3, evictLoginKeys: false, now: NOW });
      const before = await store.listApiKeys(accountId);
      const refused = keyRecord(accountId, { createdAt: NOW });
      expect(await store.createApiKeyWithinCap(refused, { maxLiveKeys: 3, evictLoginKeys: false, now: NOW })).to.deep.equal({ outcome: 'at-cap', liveKeys: 3 });
      expect(await store.listApiKeys(accountId)).to.deep.equal(before);
      expect(await store.findApiKeyByHash(refused.keyHash)).to.equal(undefined);
    });

    it('makes room by revoking the oldest live login keys, as many as needed, never other keys', async () => {
      const older = loginKey(NOW - 5_000);
      const newer = loginKey(NOW - 4_000);
      await store.createApiKey(keyRecord(accountId, { name: 'login', createdAt: NOW - 9_000 })); // named so by a user: no login key
      await store.createApiKey(older);
      await store.createApiKey(newer);
      // Four live keys under a cap of 3 (lowered since): two must go for a third.
      const fresh = loginKey(NOW);
      expect(await store.createApiKeyWithinCap(fresh, { maxLiveKeys: 3, evictLoginKeys: true, now: NOW })).to.deep.equal({ outcome: 'created', evictedKeyIds: [older.id, newer.id] });
      expect((await store.findApiKeyByHash(older.keyHash))?.revokedAt).to.equal(NOW);
      expect((await store.findApiKeyByHash(newer.keyHash))?.revokedAt).to.equal(NOW);
      expect(await store.findApiKeyByHash(fresh.keyHash)).to.include({ madeByLogin: true, revokedAt: null });
      expect(await liveIds()).to.have.length(3);
    });

    it('refuses when too few login keys could make room, revoking none', async () => {
      await store.createApiKey(loginKey(NOW - 5_000));
      await store.createApiKey(keyRecord(accountId, { createdAt: NOW - 4_000 }));
      const live = await liveIds();
      expect(await store.createApiKeyWithinCap(loginKey(NOW), { maxLiveKeys: 2, evictLoginKeys: true, now: NOW })).to.deep.equal({ outcome: 'at-cap', liveKeys: 3 });
      expect(await liveIds()).to.deep.equal(live);
    });

    it('never passes the cap with keys made at the same time', async () => {
      const attempts = Array.from({ length: 12 }, (_, index) => keyRecord(accountId, { createdAt: NOW + index }));
      const results = await Promise.all(attempts.map((key) => store.createApiKeyWithinCap(key, { maxLiveKeys: 5, evictLoginKeys: false, now: NOW })));
      expect(results.filter((result) => result.outcome === 'created')).to.have.length(4);
      expect(await liveIds()).to.have.length(5);
    });

    it('keeps making room for logins made at the same time, never passing the cap', async () => {
      const attempts = Array.from({ length: 12 }, (_, index) => loginKey(NOW + index));
      const results = await Promise.all(attempts.map((key) => store.createApiKeyWithinCap(key, { maxLiveKeys: 4, evictLoginKeys: true, now: NOW })));
      expect(results.every((result) => result.outcome === 'created')).to.equal(true);
      expect(await liveIds()).to.have.length(4);
    });
  });
}
