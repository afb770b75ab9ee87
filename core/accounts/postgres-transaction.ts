import type pg from 'pg';
import type { PostgresDeadline } from './postgres-deadline';
import { leavesConnectionUnusable } from './postgres-failure';
import type { PostgresQuery } from './postgres-usage-and-limits';

/**
 * One statement on a connection of `pool`, within `deadline` (the wait for the connection
 * included); a failure is thrown as `failure` words it. A connection the failure left unusable (a
 * statement the client gave up on may still run there, or it broke) is closed, not given back.
 */
export async function queryWithin<Row extends pg.QueryResultRow>(pool: pg.Pool, deadline: PostgresDeadline, text: string, values: unknown[], failure: (error: unknown) => unknown): Promise<pg.QueryResult<Row>> {
  const client = await pool.connect().catch((error: unknown) => Promise.reject(failure(error)));
  let unusable = false;
  try {
    return await deadline.queryOn(client)<Row>(text, values);
  } catch (error) {
    unusable = leavesConnectionUnusable(error);
    throw failure(error);
  } finally {
    client.release(unusable);
  }
}

/**
 * BEGIN, `work`, COMMIT on one connection of `pool`, all of it within `deadline`; ROLLBACK on a
 * failure, which is thrown as `failure` words it. A connection the failure left unusable (a
 * statement the client gave up on may still run there, and a ROLLBACK would wait behind it) is
 * closed rather than rolled back and given back: the server rolls back a transaction whose connection goes.
 */
export async function inTransaction<Result>(pool: pg.Pool, deadline: PostgresDeadline, work: (query: PostgresQuery) => Promise<Result>, failure: (error: unknown) => unknown): Promise<Result> {
  const client = await pool.connect().catch((error: unknown) => Promise.reject(failure(error)));
  const query = deadline.queryOn(client);
  let unusable = false;
  try {
    await query('BEGIN', []);
    const result = await work(query);
    await query('COMMIT', []);
    return result;
  } catch (error) {
    // The ROLLBACK has the pool's own limit: a deadline just passed must not close a sound connection.
    unusable = leavesConnectionUnusable(error) || !(await client.query('ROLLBACK').then(() => true, () => false));
    throw failure(error);
  } finally {
    client.release(unusable);
  }
}
