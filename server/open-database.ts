import { resolve } from 'node:path';
import { ConfigError } from '../config';
import type { DatabaseConfig } from '../config/types';
import { openAccountStore, type AccountStore } from '../core';

const SQLITE_FILE = /^sqlite:(?!:memory:$)(.+)$/;

/** What the operator should look at: the SQLite file as resolved, else the setting alone (a PostgreSQL URL may hold a password). */
function whichDatabase(url: string): string {
  const file = SQLITE_FILE.exec(url)?.[1];
  if (file !== undefined) return `database.url (SQLite file ${resolve(file.replace(/^\/\/(?=\/)/, ''))})`;
  return url.startsWith('sqlite:') ? 'database.url' : 'database.url (PostgreSQL)';
}

function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // core's PostgreSQL failure says "the PostgreSQL database could not be opened: <pg's reason>".
  if (/^the PostgreSQL database could not be opened: /.test(error.message)) return error.message.replace(/^[^:]*: /, '');
  const code = (error as { code?: unknown }).code;
  // fs messages carry their code (`EACCES: permission denied, mkdir '/srv/data'`); SQLite's do not.
  return typeof code === 'string' && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
}

/**
 * Opens the account database of `database.url` for the server and the CLI. A database that
 * cannot be opened (a folder the gateway's user may not create, a file that is not SQLite, a
 * PostgreSQL server that refuses) is one line naming the setting, not a bare fs or SQLite error.
 */
export async function openDatabase(database: DatabaseConfig): Promise<AccountStore> {
  try {
    return await openAccountStore(database.url, { statementTimeoutMs: database.statementTimeoutMs });
  } catch (error) {
    throw new ConfigError(`The account database of ${whichDatabase(database.url)} could not be opened: ${reasonOf(error)}`);
  }
}
