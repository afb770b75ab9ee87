import { durationText, gatewayError } from '../errors';

/**
 * SQLite's codes for a statement that could not get its lock within the busy timeout: another
 * connection (the CLI, a backup, a sqlite3 shell) holds the write lock, or, for SQLITE_LOCKED, a
 * conflicting lock in the same process. better-sqlite3 gives the extended code
 * (`SQLITE_BUSY_SNAPSHOT`), so these are prefixes.
 */
const LOCKED_PREFIXES = ['SQLITE_BUSY', 'SQLITE_LOCKED'];

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

/** The statement gave up waiting for another connection's lock. */
export function isSqliteLocked(error: unknown): boolean {
  const code = codeOf(error);
  return LOCKED_PREFIXES.some((prefix) => code === prefix || code.startsWith(`${prefix}_`));
}

/**
 * A SQLite failure as the client should hear it: a database locked for longer than the busy
 * timeout is unavailable for now (503 with Retry-After, worth a retry), as PostgreSQL's timed-out
 * statement is (postgres-failure.ts), not a bug (500). Neither the SQL nor SQLite's text reaches
 * the answer; the original stays the cause, and its code goes to the log. Anything else (a
 * constraint, a bug) passes unchanged.
 */
export function sqliteFailure(error: unknown, busyTimeoutMs: number): unknown {
  if (!isSqliteLocked(error)) return error;
  return gatewayError(
    'TTS_ERR_UNAVAILABLE',
    { provider: 'The account database', reason: `another connection held its lock for more than ${durationText(busyTimeoutMs)}` },
    { details: [{ reason: 'database_timeout' }], logContext: { databaseCode: codeOf(error) }, cause: error },
  );
}
