import { expect } from 'chai';
import type { LimitsConfig } from '../../../config/types';
import { MemoryWindowCounters, SqliteAccountStore, SynthesisLimiter, type SynthesisLimiterOptions } from '../../../core';
import { accountRecord, keyRecord } from '../accounts/account-store-contract';

// 2025-03-01T15:00:00Z: the day's usage so far was written by the gateway before its restart.
const CLOCK = Date.UTC(2025, 2, 1, 15, 0, 0);
const HOUR = 3_600_000;

describe('core/limits daily characters after a restart (counters in memory)', () => {
  let store: SqliteAccountStore;
  let accountId: string;
  let keyId: string;
  beforeEach(async () => {
    store = new SqliteAccountStore(':memory:');
    const account = accountRecord('ada@example.com');
    const key = keyRecord(account.id);
    await store.createAccountWithKey(account, key);
    ({ id: accountId } = account);
    ({ id: keyId } = key);
    const row = (characters: number, createdAt: number, rowKeyId = keyId) => ({ accountId, keyId: rowKeyId, model: 'tts-1', characters, bytes: 100, createdAt });
    // Today: 70 through this key and 10 through another; yesterday's 1000 no longer count.
    await store.recordActivity({ touches: new Map(), usage: [row(50, CLOCK - 2 * HOUR), row(20, CLOCK - HOUR), row(10, CLOCK - HOUR, 'other-key'), row(1000, CLOCK - 16 * HOUR)], failures: [] });
  });
  afterEach(() => store.close());

  /** The limiter of a gateway that has just started: its counters are empty. */
  const startedLimiter = (limits: LimitsConfig) =>
    new SynthesisLimiter({
      limits,
      counters: new MemoryWindowCounters(),
      accountLimits: async () => ({}),
      storedCharacters: (account: string, fromMs: number, toMs: number) => store.charactersByKey(account, fromMs, toMs),
      now: () => CLOCK,
    } as SynthesisLimiterOptions);

  it("counts the account's characters used today before the restart: the quota is not given again", async () => {
    const subject = startedLimiter({ charactersPerDay: 100, perKey: {} });
    const refused = await subject.admit({ accountId, keyId }, 30);
    expect(refused.refusal?.code).to.equal('TTS_ERR_RATE_LIMITED');
    expect(refused.limits[0]).to.include({ name: 'account-day', remaining: 20 });
    const admitted = await subject.admit({ accountId, keyId }, 20);
    expect(admitted.refusal).to.equal(undefined);
    expect(admitted.limits[0]).to.include({ remaining: 0 });
  });

  it("counts each key's own characters of today against the per-key cap", async () => {
    const subject = startedLimiter({ perKey: { charactersPerDay: 75 } });
    expect((await subject.admit({ accountId, keyId }, 6)).refusal?.code).to.equal('TTS_ERR_RATE_LIMITED');
    expect((await subject.admit({ accountId, keyId: 'other-key' }, 65)).limits[0]).to.include({ name: 'key-day', remaining: 0 });
  });

  it("opens a key's daily counter from the database as of the key's first use here, not the account's first read", async () => {
    let reads = 0;
    const subject = new SynthesisLimiter({
      limits: { perKey: { charactersPerDay: 75 } },
      counters: new MemoryWindowCounters(),
      accountLimits: async () => ({}),
      storedCharacters: (account: string, fromMs: number, toMs: number) => {
        reads += 1;
        return store.charactersByKey(account, fromMs, toMs);
      },
      now: () => CLOCK,
    } as SynthesisLimiterOptions);
    expect((await subject.admit({ accountId, keyId }, 5)).refusal).to.equal(undefined);
    // Another replica (or this gateway before it restarted) served the other key after that read.
    await store.recordActivity({ touches: new Map(), usage: [{ accountId, keyId: 'other-key', model: 'tts-1', characters: 60, bytes: 100, createdAt: CLOCK - 1 }], failures: [] });
    const refused = await subject.admit({ accountId, keyId: 'other-key' }, 6);
    expect(refused.refusal?.code).to.equal('TTS_ERR_RATE_LIMITED');
    expect(refused.limits[0]).to.include({ name: 'key-day', remaining: 5 });
    // One read per key and day: the hot path does not read the database again.
    await subject.admit({ accountId, keyId: 'other-key' }, 5);
    await subject.admit({ accountId, keyId }, 0);
    expect(reads).to.equal(2);
  });
});
