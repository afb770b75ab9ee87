import type pg from 'pg';

/** pg is loaded with the first PostgreSQL pool (about 15 MB), not by every gateway that imports core. */
const pgModule = (): typeof pg => require('pg') as typeof pg;

const INT8_OID = 20;

/**
 * BIGINT columns hold Unix milliseconds and byte counts, far below 2^53: read them as numbers
 * (pg's default is a string). Scoped to our pool, not pg's process-wide parsers.
 */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary' ? (value: string) => Number(value) : pgModule().types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/**
 * How much longer than the server's statement limit the client waits for an answer: the server
 * cancels a statement at its limit and says so at once; no word past this means it stopped answering.
 */
export const STALLED_SERVER_MARGIN_MS = 1000;

export interface PostgresPoolOptions {
  /** Connections per replica; PostgreSQL's own limit is shared by all replicas. */
  readonly max?: number;
  /**
   * The longest one statement may run, lock waits included: the server's `statement_timeout` on
   * every connection, and the client's `query_timeout` a margin later, which is also the longest
   * wait for a connection. Absent: no statement limit, 10 s for a connection (migrations).
   */
  readonly statementTimeoutMs?: number;
  /** Told about an idle connection that broke (the pool replaces it; without a listener it would crash the process). */
  readonly onError?: (error: Error) => void;
}

/** A pg Pool on a `postgres://` URL. */
export function createPostgresPool(url: string, options: PostgresPoolOptions = {}): pg.Pool {
  const limit = options.statementTimeoutMs;
  const pool = new (pgModule().Pool)({
    connectionString: url,
    max: options.max ?? 10,
    types,
    idleTimeoutMillis: 30_000,
    // With a limit, a connection is waited for no longer than a statement's answer (the store's
    // calls count both within one deadline, postgres-deadline.ts); without one (migrations), 10 s.
    connectionTimeoutMillis: limit === undefined ? 10_000 : limit + STALLED_SERVER_MARGIN_MS,
    ...(limit !== undefined && { statement_timeout: limit, query_timeout: limit + STALLED_SERVER_MARGIN_MS }),
  });
  pool.on('error', (error) => options.onError?.(error));
  return pool;
}
