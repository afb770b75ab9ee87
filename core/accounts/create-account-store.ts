import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { AccountStore } from './account-store';
import { PostgresAccountStore } from './postgres-account-store';
import { SqliteAccountStore } from './sqlite-account-store';

const MEMORY_URL = 'sqlite::memory:';
const SQLITE_PREFIX = 'sqlite:';
const POSTGRES_PATTERN = /^postgres(ql)?:\/\//i;

export interface AccountStoreOptions {
  /**
   * The longest one statement may run (`database.statementTimeout`): PostgreSQL's statement
   * limit, SQLite's wait for another connection's lock (its busy timeout). Absent = the store's default.
   */
  readonly statementTimeoutMs?: number;
}

/**
 * Opens the account store a database URL names: `sqlite:<path>` (parent folders are created),
 * `sqlite::memory:`, or `postgres://` / `postgresql://` (a pool; its schema migrates in the
 * background: openAccountStore waits for that).
 */
export function createAccountStore(url: string, options: AccountStoreOptions = {}): AccountStore {
  const sqliteOptions = { busyTimeoutMs: options.statementTimeoutMs };
  if (url === MEMORY_URL) return new SqliteAccountStore(':memory:', undefined, sqliteOptions);
  if (url.startsWith(SQLITE_PREFIX)) {
    const path = url.slice(SQLITE_PREFIX.length).replace(/^\/\/(?=\/)/, '');
    if (path.length === 0) throw new Error('database.url "sqlite:" needs a file path, for example sqlite:./data/gateway.db');
    const filename = resolve(path);
    mkdirSync(dirname(filename), { recursive: true, mode: 0o700 });
    // Password hashes and key hashes: readable by the gateway's user alone. SQLite gives its
    // journal and WAL files the database file's permissions.
    closeSync(openSync(filename, 'a', 0o600));
    return new SqliteAccountStore(filename, undefined, sqliteOptions);
  }
  if (POSTGRES_PATTERN.test(url)) return new PostgresAccountStore(url, { statementTimeoutMs: options.statementTimeoutMs });
  // Show only the scheme: the rest of a URL may hold a password.
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0] ?? '(none)';
  throw new Error(`database.url scheme ${scheme} is not supported; use sqlite:<path>, sqlite::memory: or postgres://user:password@host:port/database`);
}

/** createAccountStore, ready for use: a PostgreSQL schema is migrated before this resolves. */
export async function openAccountStore(url: string, options: AccountStoreOptions = {}): Promise<AccountStore> {
  const store = createAccountStore(url, options);
  if (store instanceof PostgresAccountStore) {
    try {
      await store.ready();
    } catch (error) {
      await store.close();
      throw new Error(`the PostgreSQL database could not be opened: ${describePostgresError(error)}`);
    }
  }
  return store;
}

/** pg's messages name the host and user at most, never the password; keep them short anyway. */
function describePostgresError(error: unknown): string {
  const failure = error as { message?: string; code?: string };
  const text = typeof failure?.message === 'string' ? failure.message : String(error);
  return failure?.code ? `${text} (${failure.code})` : text;
}
