import { durationText, gatewayError } from '../errors';

const SUBJECT = 'The account database';

/**
 * PostgreSQL's codes for a statement that ran out of time: 57014 query_canceled (what
 * `statement_timeout` raises) and 55P03 lock_not_available (`lock_timeout`, NOWAIT).
 */
const TIMED_OUT_CODES = new Set(['57014', '55P03']);
/** The server is going away or refuses more sessions: 57P01-57P03 (shutdown, crash, starting), 53300 too_many_connections. */
const UNREACHABLE_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
/** Node's own for a connection that fails or breaks. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** pg's messages (it gives no code) for its client-side limit: `query_timeout`. */
const CLIENT_TIMEOUT_MESSAGES = ['Query read timeout'];
/** pg's and pg-pool's messages for a connection that could not be had or broke. */
const CONNECTION_MESSAGES = ['timeout exceeded when trying to connect', 'Connection terminated', 'Client has encountered a connection error'];

/**
 * What the log names for pg's own failures, which have a message and no code (the message may
 * name the host and user): the condition in one word instead.
 */
const CLIENT_CONDITIONS: readonly (readonly [prefix: string, condition: string])[] = [
  ['Query read timeout', 'client_query_timeout'],
  ['timeout exceeded when trying to connect', 'connect_timeout'],
  ['Connection terminated due to connection timeout', 'connect_timeout'],
  ['Connection terminated', 'connection_lost'],
  ['Client has encountered a connection error', 'connection_lost'],
];

interface PostgresLikeError {
  readonly code?: unknown;
  readonly message?: unknown;
}

function textOf(error: unknown): string {
  const message = (error as PostgresLikeError | null)?.message;
  return typeof message === 'string' ? message : '';
}

function codeOf(error: unknown): string {
  const code = (error as PostgresLikeError | null)?.code;
  return typeof code === 'string' ? code : '';
}

/** The statement ran out of time: the server's limit, or the client's for a server that stopped answering. */
export function isPostgresTimeout(error: unknown): boolean {
  return TIMED_OUT_CODES.has(codeOf(error)) || CLIENT_TIMEOUT_MESSAGES.some((message) => textOf(error).startsWith(message));
}

/** No answer can be had now: the server cannot be reached, or the connection broke. */
function isUnreachable(error: unknown): boolean {
  const code = codeOf(error);
  return code.startsWith('08') || UNREACHABLE_CODES.has(code) || NETWORK_CODES.has(code) || CONNECTION_MESSAGES.some((message) => textOf(error).startsWith(message));
}

/**
 * Whether the connection a failed statement ran on must not serve again: the client gave up
 * waiting (the statement may still be running there) or the connection broke. It is closed
 * rather than rolled back, which would wait behind that statement; the server rolls back itself.
 */
export function leavesConnectionUnusable(error: unknown): boolean {
  return CLIENT_TIMEOUT_MESSAGES.some((message) => textOf(error).startsWith(message)) || isUnreachable(error);
}

/**
 * A PostgreSQL failure as the client should hear it: out of time or out of reach, the database
 * is unavailable (503 with Retry-After, worth a retry) rather than a bug (500). Neither the SQL
 * nor PostgreSQL's text reaches the answer; the original stays the cause, and its code goes to
 * the log. Anything else (a constraint, a bug) passes unchanged.
 */
export function postgresFailure(error: unknown, statementTimeoutMs: number | undefined): unknown {
  const databaseCode = codeOf(error) || CLIENT_CONDITIONS.find(([prefix]) => textOf(error).startsWith(prefix))?.[1];
  if (isPostgresTimeout(error)) {
    const reason = statementTimeoutMs === undefined ? 'it did not answer in time' : `it did not answer within ${durationText(statementTimeoutMs)}`;
    return gatewayError('TTS_ERR_UNAVAILABLE', { provider: SUBJECT, reason }, { details: [{ reason: 'database_timeout' }], logContext: { databaseCode }, cause: error });
  }
  if (isUnreachable(error)) {
    return gatewayError('TTS_ERR_UNAVAILABLE', { provider: SUBJECT, reason: 'it cannot be reached' }, { details: [{ reason: 'database_unreachable' }], logContext: { databaseCode }, cause: error });
  }
  return error;
}
