import { expect } from 'chai';
import { PostgresAccountStore, type UsageRecord } from '../../../core';
import { sharedPostgres } from '../../support/servers/shared-servers';
import { accountRecord, keyRecord } from './account-store-contract';

/**
 * Two replicas write their batches (key uses, usage rows, daily sums) at the same moment, each in
 * the order its own requests came in: the same keys and accounts, in different orders.
 */
describe('core/accounts PostgreSQL batches of two replicas at once', () => {
  let stores: PostgresAccountStore[] = [];
  afterEach(async () => {
    await Promise.all(stores.map((store) => store.close()));
    stores = [];
  });

  async function twoReplicas(name: string): Promise<[PostgresAccountStore, PostgresAccountStore]> {
    const url = await (await sharedPostgres()).createDatabase(name);
    const a = new PostgresAccountStore(url, { max: 2 });
    const b = new PostgresAccountStore(url, { max: 2 });
    stores.push(a, b);
    await Promise.all([a.ready(), b.ready()]);
    return [a, b];
  }

  it('key uses of the same keys, in opposite orders: both batches are written (no deadlock)', async () => {
    const [a, b] = await twoReplicas('touches');
    const account = accountRecord('many-keys@example.com');
    const keys = Array.from({ length: 60 }, () => keyRecord(account.id));
    await a.createAccountWithKey(account, keys[0]);
    for (const key of keys.slice(1)) await a.createApiKey(key);
    const failures: string[] = [];
    for (let round = 1; round <= 3; round += 1) {
      const usedAt = 1_000 * round;
      const inOrder = new Map(keys.map((key) => [key.id, usedAt]));
      const reversed = new Map([...keys].reverse().map((key) => [key.id, usedAt + 1]));
      const outcomes = await Promise.allSettled([
        a.recordActivity({ touches: inOrder, usage: [], failures: [] }),
        b.recordActivity({ touches: reversed, usage: [], failures: [] }),
      ]);
      for (const outcome of outcomes) if (outcome.status === 'rejected') failures.push((outcome.reason as Error).message);
    }
    expect(failures).to.deep.equal([]);
  });

  it('usage of the same accounts, in opposite orders: both batches are written and counted once (no deadlock)', async () => {
    const [a, b] = await twoReplicas('daily');
    const accounts = Array.from({ length: 60 }, (_, index) => accountRecord(`user${index}@example.com`));
    const keys = accounts.map((account) => keyRecord(account.id));
    for (const [index, account] of accounts.entries()) await a.createAccountWithKey(account, keys[index]);
    const createdAt = Date.UTC(2025, 5, 12, 12);
    const rows = accounts.map((account, index): UsageRecord => ({ accountId: account.id, keyId: keys[index].id, model: 'tts-1', characters: 10, bytes: 100, createdAt }));
    const failures: string[] = [];
    for (let round = 1; round <= 3; round += 1) {
      const outcomes = await Promise.allSettled([
        a.recordActivity({ touches: new Map(), usage: rows, failures: [] }),
        b.recordActivity({ touches: new Map(), usage: [...rows].reverse(), failures: [] }),
      ]);
      for (const outcome of outcomes) if (outcome.status === 'rejected') failures.push((outcome.reason as Error).message);
    }
    expect(failures).to.deep.equal([]);
    expect((await a.listDailyUsage(accounts[0].id, '2025-06-12', '2025-06-12'))[0]?.requests).to.equal(6);
  });
});
