import type pg from 'pg';
import { leavesConnectionUnusable } from './postgres-failure';

/**
 * BEGIN, `work`, COMMIT on one connection of `pool`; ROLLBACK on a failure, which is thrown as
 * `failure` words it. A connection the failure left unusable (a statement the client gave up
 * on may still run there, and a ROLLBACK would wait behind it) is closed rather than rolled back
 * and given back: the server rolls back a transaction whose connection goes.
 */
export async function inTransaction<Result>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<Result>, failure: (error: unknown) => unknown): Promise<Result> {
  const client = await pool.connect().catch((error: unknown) => Promise.reject(failure(error)));
  let unusable = false;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    unusable = leavesConnectionUnusable(error) || !(await client.query('ROLLBACK').then(() => true, () => false));
    throw failure(error);
  } finally {
    client.release(unusable);
  }
}
