import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { AccountStore } from './account-store';
import { SqliteAccountStore } from './sqlite-account-store';

const MEMORY_URL = 'sqlite::memory:';
const SQLITE_PREFIX = 'sqlite:';

/**
 * Opens the account store a database URL names: `sqlite:<path>` (parent folders are created)
 * or `sqlite::memory:`. Other schemes (a PostgreSQL store, later) plug in here.
 */
export function createAccountStore(url: string): AccountStore {
  if (url === MEMORY_URL) return new SqliteAccountStore(':memory:');
  if (url.startsWith(SQLITE_PREFIX)) {
    const path = url.slice(SQLITE_PREFIX.length).replace(/^\/\/(?=\/)/, '');
    if (path.length === 0) throw new Error('database.url "sqlite:" needs a file path, for example sqlite:./data/gateway.db');
    const filename = resolve(path);
    mkdirSync(dirname(filename), { recursive: true });
    return new SqliteAccountStore(filename);
  }
  // Show only the scheme: the rest of a URL may hold a password.
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0] ?? '(none)';
  throw new Error(`database.url scheme ${scheme} is not supported; use sqlite:<path> or sqlite::memory:`);
}
