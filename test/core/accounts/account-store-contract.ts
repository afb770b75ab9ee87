import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { AccountRecord, AccountStore, ApiKeyRecord, UsageRecord } from '../../../core';

/** A fresh, empty store and a way to release it. */
export interface StoreUnderTest {
  readonly store: AccountStore;
  release(): Promise<void>;
}

const T0 = 1_750_000_000_000;

export function accountRecord(email: string, createdAt = T0): AccountRecord {
  return { id: randomUUID(), email, passwordHash: `scrypt$1024$8$1$salt$${randomUUID()}`, createdAt };
}

export function keyRecord(accountId: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  const id = randomUUID();
  return { id, accountId, name: 'default', prefix: 'ttsg_abcdef', keyHash: id.replace(/-/g, '').padEnd(64, '0'), createdAt: T0, lastUsedAt: null, revokedAt: null, expiresAt: null, ...overrides };
}

/** One usage row written alone, as a batch of one (the store's only way to write usage). */
function recordUsage(store: AccountStore, usage: UsageRecord): Promise<void> {
  return store.recordActivity({ touches: new Map(), usage: [usage], failures: [] });
}

/**
 * The AccountStore contract, run against every implementation (SQLite and PostgreSQL): what
 * AccountService relies on, down to ordering, atomicity and number types.
 */
export function describeAccountStoreContract(name: string, open: () => Promise<StoreUnderTest>): void {
  describe(`AccountStore contract: ${name}`, function () {
    let subject: StoreUnderTest;
    let store: AccountStore;
    beforeEach(async () => {
      subject = await open();
      store = subject.store;
    });
    afterEach(() => subject.release());

    it('answers a readiness ping', async () => {
      await store.ping();
    });

    it('finds nothing in an empty store', async () => {
      expect(await store.findAccountByEmail('nobody@example.com')).to.equal(undefined);
      expect(await store.findAccountById(randomUUID())).to.equal(undefined);
      expect(await store.findApiKeyByHash('0'.repeat(64))).to.equal(undefined);
      expect(await store.listApiKeys(randomUUID())).to.deep.equal([]);
      expect(await store.listUsage(randomUUID())).to.deep.equal([]);
    });

    it('creates an account with its first key and finds both back, numbers as numbers', async () => {
      const account = accountRecord('ada@example.com', T0 + 123);
      const key = keyRecord(account.id, { createdAt: T0 + 456 });
      expect(await store.createAccountWithKey(account, key)).to.equal('created');
      expect(await store.findAccountByEmail('ada@example.com')).to.deep.equal(account);
      expect(await store.findAccountById(account.id)).to.deep.equal(account);
      const found = await store.findApiKeyByHash(key.keyHash);
      expect(found).to.deep.include(key);
      expect(found?.createdAt).to.be.a('number');
      expect(await store.listApiKeys(account.id)).to.have.length(1);
    });

    it('answers duplicate-email for a taken email and keeps nothing of the attempt', async () => {
      const first = accountRecord('grace@example.com');
      await store.createAccountWithKey(first, keyRecord(first.id));
      const second = accountRecord('grace@example.com');
      const secondKey = keyRecord(second.id);
      expect(await store.createAccountWithKey(second, secondKey)).to.equal('duplicate-email');
      expect(await store.findAccountById(second.id)).to.equal(undefined);
      expect(await store.findApiKeyByHash(secondKey.keyHash)).to.equal(undefined);
    });

    it('lets exactly one of many concurrent registrations of one email win', async () => {
      const attempts = Array.from({ length: 8 }, () => accountRecord('race@example.com'));
      const results = await Promise.all(attempts.map((account) => store.createAccountWithKey(account, keyRecord(account.id))));
      expect(results.filter((result) => result === 'created')).to.have.length(1);
      expect(results.filter((result) => result === 'duplicate-email')).to.have.length(7);
    });

    it('lists an account’s keys oldest first, insertion order breaking ties, and only its own', async () => {
      const account = accountRecord('keys@example.com');
      const other = accountRecord('other@example.com');
      const first = keyRecord(account.id, { name: 'first', createdAt: T0 + 5 });
      await store.createAccountWithKey(account, first);
      await store.createAccountWithKey(other, keyRecord(other.id));
      const sameMoment = [keyRecord(account.id, { name: 'b', createdAt: T0 + 10 }), keyRecord(account.id, { name: 'a', createdAt: T0 + 10 })];
      const older = keyRecord(account.id, { name: 'older', createdAt: T0 + 1 });
      for (const key of [...sameMoment, older]) await store.createApiKey(key);
      expect((await store.listApiKeys(account.id)).map((key) => key.name)).to.deep.equal(['older', 'first', 'b', 'a']);
    });

    it('refuses a second key with the same hash', async () => {
      const account = accountRecord('hash@example.com');
      const key = keyRecord(account.id);
      await store.createAccountWithKey(account, key);
      const error = await store.createApiKey({ ...key, id: randomUUID() }).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).to.be.instanceOf(Error);
    });

    it('revokes a live key of that account once, and no one else’s', async () => {
      const account = accountRecord('revoke@example.com');
      const other = accountRecord('mallory@example.com');
      const key = keyRecord(account.id);
      await store.createAccountWithKey(account, key);
      await store.createAccountWithKey(other, keyRecord(other.id));
      expect(await store.revokeApiKey(other.id, key.id, T0 + 1)).to.equal(false);
      expect(await store.revokeApiKey(account.id, randomUUID(), T0 + 1)).to.equal(false);
      expect(await store.revokeApiKey(account.id, key.id, T0 + 2)).to.equal(true);
      expect(await store.revokeApiKey(account.id, key.id, T0 + 3)).to.equal(false);
      expect((await store.findApiKeyByHash(key.keyHash))?.revokedAt).to.equal(T0 + 2);
    });

    it('does not revoke an expired key, as it could not once the sweep deleted it', async () => {
      const account = accountRecord('expired-revoke@example.com');
      const expiring = keyRecord(account.id, { name: 'expiring', expiresAt: T0 + 1_000 });
      await store.createAccountWithKey(account, keyRecord(account.id));
      await store.createApiKey(expiring);
      expect(await store.revokeApiKey(account.id, expiring.id, T0 + 1_000)).to.equal(false);
      expect((await store.findApiKeyByHash(expiring.keyHash))?.revokedAt).to.equal(null);
      expect(await store.revokeApiKey(account.id, expiring.id, T0 + 999)).to.equal(true);
    });

    it('records the last use of a key', async () => {
      const account = accountRecord('touch@example.com');
      const key = keyRecord(account.id);
      await store.createAccountWithKey(account, key);
      await store.touchApiKey(key.id, T0 + 99_000);
      expect((await store.findApiKeyByHash(key.keyHash))?.lastUsedAt).to.equal(T0 + 99_000);
    });

    it('records usage per account, oldest first', async () => {
      const account = accountRecord('usage@example.com');
      const other = accountRecord('usage2@example.com');
      const key = keyRecord(account.id);
      await store.createAccountWithKey(account, key);
      await store.createAccountWithKey(other, keyRecord(other.id));
      const later = { accountId: account.id, keyId: key.id, model: 'espeak', characters: 12, bytes: 5_000_000_000, createdAt: T0 + 20 };
      const earlier = { accountId: account.id, keyId: key.id, model: 'tts-1', characters: 3, bytes: 10, createdAt: T0 + 10 };
      await recordUsage(store, later);
      await recordUsage(store, earlier);
      await recordUsage(store, { ...earlier, accountId: other.id });
      expect(await store.listUsage(account.id)).to.deep.equal([earlier, later]);
    });

    it('keeps a key’s expiry and deletes only the keys expired by a time', async () => {
      const account = accountRecord('expiry@example.com');
      const lasting = keyRecord(account.id, { name: 'lasting' });
      const soon = keyRecord(account.id, { name: 'soon', expiresAt: T0 + 1_000 });
      const later = keyRecord(account.id, { name: 'later', expiresAt: T0 + 2_000 });
      await store.createAccountWithKey(account, lasting);
      await store.createApiKey(soon);
      await store.createApiKey(later);
      expect((await store.findApiKeyByHash(soon.keyHash))?.expiresAt).to.equal(T0 + 1_000);
      expect(await store.deleteExpiredApiKeys(T0 + 999)).to.equal(0);
      expect(await store.deleteExpiredApiKeys(T0 + 1_000)).to.equal(1);
      expect((await store.listApiKeys(account.id)).map((key) => key.name)).to.deep.equal(['lasting', 'later']);
    });

    it('adds usage per account, UTC day and model, failures included, numbers as numbers', async () => {
      const account = accountRecord('daily@example.com');
      const key = keyRecord(account.id);
      await store.createAccountWithKey(account, key);
      // 2025-06-14 23:59 and 2025-06-15 00:01, UTC.
      const late = Date.UTC(2025, 5, 14, 23, 59);
      const early = Date.UTC(2025, 5, 15, 0, 1);
      const usage = { accountId: account.id, keyId: key.id, model: 'tts-1', characters: 10, bytes: 100, createdAt: late, audioSeconds: 1.25 };
      await recordUsage(store, usage);
      await recordUsage(store, { ...usage, characters: 5, cacheHit: true });
      await store.recordActivity({ touches: new Map(), usage: [], failures: [{ accountId: account.id, model: 'espeak-ng', createdAt: late }] });
      await recordUsage(store, { ...usage, createdAt: early, audioSeconds: undefined });
      expect(await store.listDailyUsage(account.id, '2025-06-14', '2025-06-15')).to.deep.equal([
        { day: '2025-06-14', model: 'espeak-ng', requests: 1, characters: 0, audioSeconds: 0, cacheHits: 0, errors: 1 },
        { day: '2025-06-14', model: 'tts-1', requests: 2, characters: 15, audioSeconds: 2.5, cacheHits: 1, errors: 0 },
        { day: '2025-06-15', model: 'tts-1', requests: 1, characters: 10, audioSeconds: 0, cacheHits: 0, errors: 0 },
      ]);
      expect((await store.listDailyUsage(account.id, '2025-06-15', '2025-06-15')).map((row) => row.day)).to.deep.equal(['2025-06-15']);
      expect(await store.listDailyUsage(randomUUID(), '2025-06-14', '2025-06-15')).to.deep.equal([]);
    });

    it('sums the characters of usage rows made in a time range per key, the range’s end left out', async () => {
      const account = accountRecord('by-key@example.com');
      const key = keyRecord(account.id);
      await store.createAccountWithKey(account, key);
      const start = Date.UTC(2025, 5, 15);
      const usage = { accountId: account.id, keyId: key.id, model: 'tts-1', characters: 10, bytes: 100, createdAt: start };
      await store.recordActivity({ touches: new Map(), usage: [usage, { ...usage, characters: 5, createdAt: start - 1 }, { ...usage, keyId: 'other', characters: 3 }, { ...usage, createdAt: start + 86_400_000 }], failures: [] });
      expect([...(await store.charactersByKey(account.id, start, start + 86_400_000))].sort()).to.deep.equal([[key.id, 10], ['other', 3]].sort());
      expect((await store.charactersByKey(randomUUID(), start, start + 86_400_000)).size).to.equal(0);
    });

    it('writes a batch of activity in one go: key uses, usage rows and failures', async () => {
      const account = accountRecord('batch@example.com');
      const key = keyRecord(account.id);
      await store.createAccountWithKey(account, key);
      const at = Date.UTC(2025, 5, 14, 12, 0);
      await store.recordActivity({
        touches: new Map([[key.id, at]]),
        usage: [{ accountId: account.id, keyId: key.id, model: 'tts-1', characters: 7, bytes: 70, createdAt: at, audioSeconds: 0.5 }],
        failures: [
          { accountId: account.id, model: 'tts-1', createdAt: at },
          { accountId: account.id, model: 'tts-1', createdAt: at + 1 },
        ],
      });
      expect((await store.findApiKeyByHash(key.keyHash))?.lastUsedAt).to.equal(at);
      expect(await store.listDailyUsage(account.id, '2025-06-14', '2025-06-14')).to.deep.equal([
        { day: '2025-06-14', model: 'tts-1', requests: 3, characters: 7, audioSeconds: 0.5, cacheHits: 0, errors: 2 },
      ]);
    });

    it('skips the parts of a batch sent again that an earlier write of the same writer committed (its answer lost)', async () => {
      const account = accountRecord('sent-twice@example.com');
      const key = keyRecord(account.id);
      await store.createAccountWithKey(account, key);
      const at = Date.UTC(2025, 5, 14, 12, 0);
      const row = (characters: number) => ({ accountId: account.id, keyId: key.id, model: 'tts-1', characters, bytes: 1, createdAt: at });
      const failure = { accountId: account.id, model: 'tts-1', createdAt: at };
      const writerId = randomUUID();
      const first = { number: 1, usage: 2, failures: 1 };
      await store.recordActivity({ touches: new Map(), usage: [row(1), row(2)], failures: [failure], sender: { writerId, parts: [first] } });
      // Sent again with what came since: only part 2 is new.
      const again = { touches: new Map(), usage: [row(1), row(2), row(4)], failures: [failure], sender: { writerId, parts: [first, { number: 2, usage: 1, failures: 0 }] } };
      await store.recordActivity(again);
      await store.recordActivity(again);
      // Another writer's part 1 is its own.
      await store.recordActivity({ touches: new Map(), usage: [row(8)], failures: [], sender: { writerId: randomUUID(), parts: [{ number: 1, usage: 1, failures: 0 }] } });
      expect((await store.listUsage(account.id)).map((usage) => usage.characters)).to.deep.equal([1, 2, 4, 8]);
      expect(await store.listDailyUsage(account.id, '2025-06-14', '2025-06-14')).to.deep.equal([
        { day: '2025-06-14', model: 'tts-1', requests: 5, characters: 15, audioSeconds: 0, cacheHits: 0, errors: 1 },
      ]);
    });

    it('writes a batch that carries rows of an account deleted since, leaving those out', async () => {
      // A key cached in memory still served its account after someone deleted it: a batch
      // refused for its rows was kept and retried forever, and no one's usage was written again.
      const account = accountRecord('kept-usage@example.com');
      const key = keyRecord(account.id);
      await store.createAccountWithKey(account, key);
      const gone = randomUUID();
      const at = Date.UTC(2025, 5, 14, 12, 0);
      const row = { accountId: account.id, keyId: key.id, model: 'tts-1', characters: 7, bytes: 70, createdAt: at };
      await store.recordActivity({
        touches: new Map([[key.id, at]]),
        usage: [{ ...row, accountId: gone, keyId: randomUUID() }, row],
        failures: [{ accountId: gone, model: 'tts-1', createdAt: at }],
      });
      expect((await store.listUsage(account.id)).map((usage) => usage.characters)).to.deep.equal([7]);
      expect((await store.listDailyUsage(account.id, '2025-06-14', '2025-06-14')).map((daily) => daily.requests)).to.deep.equal([1]);
      expect(await store.listDailyUsage(gone, '2025-06-14', '2025-06-14')).to.deep.equal([]);
    });

    it('sums a large batch per account, UTC day and model, and keeps every usage row', async () => {
      const account = accountRecord('large-batch@example.com');
      const other = accountRecord('large-batch2@example.com');
      const key = keyRecord(account.id);
      const otherKey = keyRecord(other.id);
      await store.createAccountWithKey(account, key);
      await store.createAccountWithKey(other, otherKey);
      const monday = Date.UTC(2025, 6, 7, 12, 0);
      const tuesday = Date.UTC(2025, 6, 8, 12, 0);
      // A model name with what array literals and SQL quote: it must arrive as it is.
      const oddModel = 'odd,"model"{x}\\y\'z';
      const usage = Array.from({ length: 300 }, (_, index) => ({
        accountId: index % 3 === 2 ? other.id : account.id,
        keyId: index % 3 === 2 ? otherKey.id : key.id,
        model: index % 2 === 0 ? 'tts-1' : oddModel,
        characters: index,
        bytes: 1_000 + index,
        createdAt: (index < 150 ? monday : tuesday) + index,
        audioSeconds: 0.25,
        cacheHit: index % 5 === 0,
      }));
      const failures = [
        { accountId: account.id, model: oddModel, createdAt: monday },
        { accountId: account.id, model: 'tts-1', createdAt: tuesday },
      ];
      await store.recordActivity({ touches: new Map(), usage, failures });

      for (const owner of [account, other]) {
        const own = usage.filter((row) => row.accountId === owner.id);
        const expected = ['2025-07-07', '2025-07-08'].flatMap((day) =>
          [oddModel, 'tts-1'].sort().map((model) => {
            const rows = own.filter((row) => row.model === model && new Date(row.createdAt).toISOString().startsWith(day));
            const failed = owner === account ? failures.filter((row) => row.model === model && new Date(row.createdAt).toISOString().startsWith(day)).length : 0;
            return {
              day,
              model,
              requests: rows.length + failed,
              characters: rows.reduce((sum, row) => sum + row.characters, 0),
              audioSeconds: rows.length * 0.25,
              cacheHits: rows.filter((row) => row.cacheHit).length,
              errors: failed,
            };
          }),
        );
        expect(await store.listDailyUsage(owner.id, '2025-07-07', '2025-07-08')).to.deep.equal(expected);
        const stored = await store.listUsage(owner.id);
        expect(stored.length).to.equal(own.length);
        expect(stored.map((row) => [row.model, row.characters, row.bytes, row.createdAt])).to.deep.equal(own.map((row) => [row.model, row.characters, row.bytes, row.createdAt]));
      }
    });

    it('sets, keeps and clears an account’s own limits', async () => {
      const account = accountRecord('limits@example.com');
      await store.createAccountWithKey(account, keyRecord(account.id));
      expect(await store.getAccountLimits(account.id)).to.deep.equal({});
      expect(await store.setAccountLimits(account.id, { requestsPerMinute: 10, charactersPerDay: 5_000 })).to.equal(true);
      await store.setAccountLimits(account.id, { charactersPerDay: 9_000 });
      expect(await store.getAccountLimits(account.id)).to.deep.equal({ requestsPerMinute: 10, charactersPerDay: 9_000 });
      await store.setAccountLimits(account.id, { requestsPerMinute: null });
      expect(await store.getAccountLimits(account.id)).to.deep.equal({ charactersPerDay: 9_000 });
      expect(await store.setAccountLimits(randomUUID(), { requestsPerMinute: 1 })).to.equal(false);
      expect(await store.getAccountLimits(randomUUID())).to.deep.equal({});
    });
  });
}
