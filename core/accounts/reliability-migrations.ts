import type { Migration } from './migrations';
import { BACKFILL_DAILY_USAGE } from './usage-daily-backfill';

/** Key expiry, daily usage (issue 10), batches written once and the login keys' marker; numbered apart from other work's migrations. */
export const RELIABILITY_MIGRATIONS: readonly Migration[] = [
  {
    version: 10,
    name: 'api key expiry',
    sql: `
      ALTER TABLE api_keys ADD COLUMN expires_at INTEGER;
      CREATE INDEX api_keys_expiry ON api_keys(expires_at) WHERE expires_at IS NOT NULL;
    `,
  },
  {
    version: 11,
    name: 'daily usage per account and model',
    sql: `
      CREATE TABLE usage_daily (
        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        day TEXT NOT NULL,
        model TEXT NOT NULL,
        requests INTEGER NOT NULL DEFAULT 0,
        characters INTEGER NOT NULL DEFAULT 0,
        audio_seconds REAL NOT NULL DEFAULT 0,
        cache_hits INTEGER NOT NULL DEFAULT 0,
        errors INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (account_id, day, model)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 12,
    name: 'activity writers: parts of batches already written',
    sql: `
      CREATE TABLE activity_writers (
        writer_id TEXT PRIMARY KEY,
        last_part INTEGER NOT NULL,
        previous_part INTEGER NOT NULL,
        written_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 13,
    name: 'daily usage of the rows written before it existed',
    sql: BACKFILL_DAILY_USAGE.replaceAll('{day}', "strftime('%Y-%m-%d', created_at / 1000, 'unixepoch')"),
  },
  {
    version: 14,
    name: 'api keys made by login',
    // Keys from before it: a login always named its key 'login' and, since expiry, gave it one.
    sql: `
      ALTER TABLE api_keys ADD COLUMN made_by_login INTEGER NOT NULL DEFAULT 0;
      UPDATE api_keys SET made_by_login = 1 WHERE name = 'login' AND expires_at IS NOT NULL;
    `,
  },
];
