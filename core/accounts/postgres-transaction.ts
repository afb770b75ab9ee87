import type pg from 'pg';
import type { PostgresDeadline } from './postgres-deadline';
import { leavesConnectionUnusable } from './postgres-failure';
import type { PostgresQuery } from './postgres-usage-and-limits';

interface LentConnection {
  readonly client: pg.PoolClient;
  /** Back to the pool, or closed when `unusable` or it broke while lent. */
  giveBack(unusable: boolean): void;
}

/**
 * A connection of `pool`; the wait's failure is thrown as `failure` words it. While lent out, a
 * break of its socket (the network, a server killed) is listened for: pg then emits 'error' on the
 * client besides failing its statement, and the pool listens only to idle ones; unheard, that
 * event would end the whole process.
 */
async function borrow(pool: pg.Pool, failure: (error: unknown) => unknown): Promise<LentConnection> {
  const client = await pool.connect().catch((error: unknown) => Promise.reject(failure(error)));
  let broken = false;
  const noteBroken = (): void => {
    broken = true;
  };
  client.on('error', noteBroken);
  return {
    client,
    giveBack: (unusable) => {
      client.removeListener('error', noteBroken);
      client.release(unusable || broken);
    },
  };
}

/**
 * One statement on a connection of `pool`, within `deadline` (the wait for the connection
 * included); a failure is thrown as `failure` words it. A connection the failure left unusable (a
 * statement the client gave up on may still run there, or it broke) is closed, not given back.
 */
export async function queryWithin<Row extends pg.QueryResultRow>(pool: pg.Pool, deadline: PostgresDeadline, text: string, values: unknown[], failure: (error: unknown) => unknown): Promise<pg.QueryResult<Row>> {
  const lent = await borrow(pool, failure);
  let unusable = false;
  try {
    return await deadline.queryOn(lent.client)<Row>(text, values);
  } catch (error) {
    unusable = leavesConnectionUnusable(error);
    throw failure(error);
  } finally {
    lent.giveBack(unusable);
  }
}

/**
 * BEGIN, `work`, COMMIT on one connection of `pool`, all of it within `deadline` (none: each
 * statement has the pool's own limit); ROLLBACK on a failure, which is thrown as `failure` words it. A connection the failure left unusable (a
 * statement the client gave up on may still run there, and a ROLLBACK would wait behind it) is
 * closed rather than rolled back and given back: the server rolls back a transaction whose connection goes.
 */
export async function inTransaction<Result>(pool: pg.Pool, deadline: PostgresDeadline | undefined, work: (query: PostgresQuery) => Promise<Result>, failure: (error: unknown) => unknown): Promise<Result> {
  const lent = await borrow(pool, failure);
  const query: PostgresQuery = deadline ? deadline.queryOn(lent.client) : (text, values) => lent.client.query(text, values);
  let unusable = false;
  try {
    await query('BEGIN', []);
    const result = await work(query);
    await query('COMMIT', []);
    return result;
  } catch (error) {
    // The ROLLBACK has the pool's own limit: a deadline just passed must not close a sound connection.
    unusable = leavesConnectionUnusable(error) || !(await lent.client.query('ROLLBACK').then(() => true, () => false));
    throw failure(error);
  } finally {
    lent.giveBack(unusable);
  }
}
