import { RELIABILITY_MIGRATIONS } from './reliability-migrations';

/** One schema change, applied once and recorded in `schema_migrations`. Never edit a released one. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export const SQLITE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts, api keys and usage',
    sql: `
      CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        prefix TEXT NOT NULL,
        key_hash TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        last_used_at INTEGER,
        revoked_at INTEGER
      );
      CREATE INDEX api_keys_account ON api_keys(account_id);
      CREATE TABLE usage_records (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        key_id TEXT NOT NULL,
        model TEXT NOT NULL,
        characters INTEGER NOT NULL,
        bytes INTEGER NOT NULL,
        created_at INTEGER NOT NULL
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
  ...RELIABILITY_MIGRATIONS,
];
