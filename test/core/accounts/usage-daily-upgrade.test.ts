import Database from 'better-sqlite3';
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresAccountStore, POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS, SqliteAccountStore, type AccountStore, type Migration } from '../../../core';
import { createPostgresPool } from '../../../core/accounts/postgres-pool';
import { sharedPostgres } from '../../support/servers/shared-servers';
import { accountRecord, keyRecord } from './account-store-contract';

/** The schema of the releases before daily usage (migration 11): usage was kept in usage_records alone. */
const beforeDailyUsage = (migrations: readonly Migration[]) => migrations.filter((migration) => migration.version < 11);
/** The schema of the release that brought daily usage (up to 12). */
const withDailyUsage = (migrations: readonly Migration[]) => migrations.filter((migration) => migration.version <= 12);

const LAST_MS_OF_JUNE_11 = Date.parse('2025-06-11T23:59:59.999Z');
const FIRST_MS_OF_JUNE_12 = Date.parse('2025-06-12T00:00:00.000Z');

interface Versioned {
  /** A store on the database with only these migrations applied. */
  open(migrations?: readonly Migration[]): Promise<AccountStore>;
  /** Inserts a usage row as the releases before daily usage wrote it. */
  insertOldRow(accountId: string, model: string, characters: number, createdAt: number): Promise<void>;
  release(): Promise<void>;
}

async function sqliteDatabase(): Promise<Versioned> {
  const directory = mkdtempSync(join(tmpdir(), 'usage-upgrade-'));
  const path = join(directory, 'gateway.db');
  return {
    open: async (migrations = SQLITE_MIGRATIONS) => new SqliteAccountStore(path, migrations),
    insertOldRow: async (accountId, model, characters, createdAt) => {
      const raw = new Database(path);
      raw.prepare("INSERT INTO usage_records (account_id, key_id, model, characters, bytes, created_at) VALUES (?, 'k-old', ?, ?, 100, ?)").run(accountId, model, characters, createdAt);
      raw.close();
    },
    release: async () => rmSync(directory, { recursive: true, force: true }),
  };
}

async function postgresDatabase(): Promise<Versioned> {
  const url = await (await sharedPostgres()).createDatabase('usage_upgrade');
  return {
    open: async (migrations = POSTGRES_MIGRATIONS) => {
      const store = new PostgresAccountStore(url, { migrations });
      await store.ready();
      return store;
    },
    insertOldRow: async (accountId, model, characters, createdAt) => {
      const pool = createPostgresPool(url);
      await pool
        .query("INSERT INTO usage_records (account_id, key_id, model, characters, bytes, created_at) VALUES ($1, 'k-old', $2, $3, 100, $4)", [accountId, model, characters, createdAt])
        .finally(() => pool.end());
    },
    release: async () => undefined,
  };
}

for (const [name, database, migrations] of [
  ['SQLite', sqliteDatabase, SQLITE_MIGRATIONS],
  ['PostgreSQL', postgresDatabase, POSTGRES_MIGRATIONS],
] as const) {
  describe(`core/accounts daily usage of a database from an earlier release (${name})`, () => {
    let versioned: Versioned;
    beforeEach(async () => (versioned = await database()));
    afterEach(() => versioned.release());

    it('reports the usage written before daily usage existed, per UTC day, and counts later usage once', async () => {
      const oldStore = await versioned.open(beforeDailyUsage(migrations));
      const account = accountRecord('ada@example.com');
      await oldStore.createAccountWithKey(account, keyRecord(account.id));
      await oldStore.close();
      await versioned.insertOldRow(account.id, 'tts-1', 10, LAST_MS_OF_JUNE_11);
      await versioned.insertOldRow(account.id, 'tts-1', 20, LAST_MS_OF_JUNE_11 - 1000);
      await versioned.insertOldRow(account.id, 'tts-1', 7, FIRST_MS_OF_JUNE_12);

      // The release that brought daily usage, run for a while: its own rows went to both tables.
      const releaseWithDaily = await versioned.open(withDailyUsage(migrations));
      const today = new Date().toISOString().slice(0, 10);
      await releaseWithDaily.recordActivity({
        touches: new Map(),
        usage: [{ accountId: account.id, keyId: 'k-new', model: 'tts-1', characters: 5, bytes: 100, createdAt: Date.now() }],
        failures: [],
      });
      await releaseWithDaily.close();

      const upgraded = await versioned.open();
      try {
        const days = await upgraded.listDailyUsage(account.id, '2025-06-01', today);
        const summary = days.map((day) => [day.day, day.model, day.requests, day.characters]);
        expect(summary).to.deep.equal([
          ['2025-06-11', 'tts-1', 2, 30],
          ['2025-06-12', 'tts-1', 1, 7],
          [today, 'tts-1', 1, 5],
        ]);
      } finally {
        await upgraded.close();
      }
    });
  });
}
