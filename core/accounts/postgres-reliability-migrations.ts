import type { Migration } from './migrations';
import { BACKFILL_DAILY_USAGE } from './usage-daily-backfill';

/** Twins of RELIABILITY_MIGRATIONS (key expiry, daily usage, batches written once, login keys' marker) for PostgreSQL. */
export const POSTGRES_RELIABILITY_MIGRATIONS: readonly Migration[] = [
  {
    version: 10,
    name: 'api key expiry',
    sql: `
      ALTER TABLE api_keys ADD COLUMN expires_at BIGINT;
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
        requests BIGINT NOT NULL DEFAULT 0,
        characters BIGINT NOT NULL DEFAULT 0,
        audio_seconds DOUBLE PRECISION NOT NULL DEFAULT 0,
        cache_hits BIGINT NOT NULL DEFAULT 0,
        errors BIGINT NOT NULL DEFAULT 0,
        PRIMARY KEY (account_id, day, model)
      );
    `,
  },
  {
    version: 12,
    name: 'activity writers: parts of batches already written',
    sql: `
      CREATE TABLE activity_writers (
        writer_id TEXT PRIMARY KEY,
        last_part BIGINT NOT NULL,
        previous_part BIGINT NOT NULL,
        written_at BIGINT NOT NULL
      );
    `,
  },
  {
    version: 13,
    name: 'daily usage of the rows written before it existed',
    sql: BACKFILL_DAILY_USAGE.replaceAll('{day}', "to_char(to_timestamp(created_at / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD')"),
  },
  {
    version: 14,
    name: 'api keys made by login',
    // Keys from before it: a login always named its key 'login' and, since expiry, gave it one.
    sql: `
      ALTER TABLE api_keys ADD COLUMN made_by_login BOOLEAN NOT NULL DEFAULT FALSE;
      UPDATE api_keys SET made_by_login = TRUE WHERE name = 'login' AND expires_at IS NOT NULL;
    `,
  },
];
