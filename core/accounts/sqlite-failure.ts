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

const hasPrefix = (code: string, prefixes: readonly string[]): boolean => prefixes.some((prefix) => code === prefix || code.startsWith(`${prefix}_`));

/** Another connection held the lock the statement needed (SQLITE_BUSY, SQLITE_LOCKED and their extended codes): worth another try. */
export function isLockConflict(error: unknown): boolean {
  return hasPrefix(codeOf(error), LOCKED_PREFIXES);
}

/** The database's disk (or its `max_page_count`) is full: nothing more can be written until room is made. */
const FULL_PREFIXES = ['SQLITE_FULL'];
/** The file cannot be read or written now: an I/O error, a file that cannot be opened, a read-only file or mount. */
const UNREACHABLE_PREFIXES = ['SQLITE_IOERR', 'SQLITE_CANTOPEN', 'SQLITE_READONLY'];
/**
 * The file is damaged (a torn write, a disk fault, a file replaced by something else): no retry
 * mends it, but it is the operator's outage to repair from a backup, not a bug of the gateway.
 */
const DAMAGED_PREFIXES = ['SQLITE_CORRUPT', 'SQLITE_NOTADB'];

/** Why the database is unavailable, for the answer and its details; undefined: not the database's state (a constraint, a bug). */
function unavailability(code: string, busyTimeoutMs: number): { reason: string; detail: string; lasting?: true } | undefined {
  if (hasPrefix(code, LOCKED_PREFIXES)) return { reason: `another connection held its lock for more than ${durationText(busyTimeoutMs)}`, detail: 'database_timeout' };
  if (hasPrefix(code, FULL_PREFIXES)) return { reason: 'its disk is full', detail: 'database_full', lasting: true };
  if (hasPrefix(code, UNREACHABLE_PREFIXES)) return { reason: 'its file cannot be read or written', detail: 'database_unreachable' };
  if (hasPrefix(code, DAMAGED_PREFIXES)) return { reason: 'its file is damaged', detail: 'database_damaged', lasting: true };
  return undefined;
}

/**
 * A SQLite failure as the client should hear it: a database locked for longer than the busy
 * timeout, on a full disk, whose file cannot be read or written or is damaged is unavailable (503
 * with Retry-After), as PostgreSQL's timed-out or unreachable one is (postgres-failure.ts), not a
 * bug (500). Neither the SQL nor SQLite's text reaches the answer; the original stays the cause,
 * and its code goes to the log. Anything else (a constraint, a bug) passes unchanged.
 */
export function sqliteFailure(error: unknown, busyTimeoutMs: number): unknown {
  const code = codeOf(error);
  const state = unavailability(code, busyTimeoutMs);
  if (!state) return error;
  return gatewayError(
    'TTS_ERR_UNAVAILABLE',
    { provider: 'The account database', reason: state.reason },
    // A full disk or a damaged file waits for the operator: a client's SDK is told not to ask again at once.
    { details: [{ reason: state.detail }], logContext: { databaseCode: code }, cause: error, ...(state.lasting ? { retryable: false } : {}) },
  );
}
