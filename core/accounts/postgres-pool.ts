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

export interface PostgresPoolOptions {
  /** Connections per replica; PostgreSQL's own limit is shared by all replicas. */
  readonly max?: number;
  /** Told about an idle connection that broke (the pool replaces it; without a listener it would crash the process). */
  readonly onError?: (error: Error) => void;
}

/** A pg Pool on a `postgres://` URL. */
export function createPostgresPool(url: string, options: PostgresPoolOptions = {}): pg.Pool {
  const pool = new (pgModule().Pool)({ connectionString: url, max: options.max ?? 10, types, connectionTimeoutMillis: 10_000, idleTimeoutMillis: 30_000 });
  pool.on('error', (error) => options.onError?.(error));
  return pool;
}
