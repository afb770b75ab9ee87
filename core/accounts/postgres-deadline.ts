import type pg from 'pg';
import type { PostgresQuery } from './postgres-usage-and-limits';

/**
 * The end of one store call on PostgreSQL (a statement, or a whole transaction): everything the
 * call waits for counts, the wait for a connection first (a full pool, a server that accepts the
 * connection and never answers), then each statement's answer. Each statement is given what is
 * left as pg's `query_timeout`, so the call fails by its end however the time was spent: a
 * connection that took the limit no longer earns its statement a whole limit of its own.
 */
export class PostgresDeadline {
  private readonly endsAt: number;

  constructor(limitMs: number) {
    this.endsAt = Date.now() + limitMs;
  }

  /** Runs statements on `client`, each with the time left (at least 1 ms: pg reads 0 as "the pool's default"). */
  queryOn(client: pg.ClientBase): PostgresQuery {
    return <Row extends pg.QueryResultRow>(text: string, values: unknown[]) => client.query<Row>({ text, values, query_timeout: Math.max(1, this.endsAt - Date.now()) } as pg.QueryConfig);
  }
}
