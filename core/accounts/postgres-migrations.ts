import type { Migration } from './migrations';
import { POSTGRES_RELIABILITY_MIGRATIONS } from './postgres-reliability-migrations';

/**
 * The PostgreSQL schema, version for version the same as SQLITE_MIGRATIONS (same tables and
 * columns; times are Unix milliseconds in BIGINT). A new SQLite migration needs its twin here.
 */
export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts, api keys and usage',
    sql: `
      CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        created_at BIGINT NOT NULL
      );
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        prefix TEXT NOT NULL,
        key_hash TEXT NOT NULL UNIQUE,
        created_at BIGINT NOT NULL,
        last_used_at BIGINT,
        revoked_at BIGINT,
        -- Insertion order, for keys created in the same millisecond (SQLite's rowid).
        position BIGINT GENERATED ALWAYS AS IDENTITY
      );
      CREATE INDEX api_keys_account ON api_keys(account_id);
      CREATE TABLE usage_records (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        key_id TEXT NOT NULL,
        model TEXT NOT NULL,
        characters INTEGER NOT NULL,
        bytes BIGINT NOT NULL,
        created_at BIGINT NOT NULL
      );
      CREATE INDEX usage_records_account ON usage_records(account_id, created_at);
    `,
  },
  {
    version: 2,
    name: 'per-account limit overrides',
    sql: `
      ALTER TABLE accounts ADD COLUMN requests_per_minute INTEGER;
      ALTER TABLE accounts ADD COLUMN characters_per_day INTEGER;
    `,
  },
  ...POSTGRES_RELIABILITY_MIGRATIONS,
];
