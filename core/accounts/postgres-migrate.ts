import type { Pool } from 'pg';
import type { Migration } from './migrations';
import { createPostgresPool } from './postgres-pool';

/**
 * Key of the session-level advisory lock that serializes migrations: any constant works as long
 * as every replica uses the same one ("ttsg" in ASCII).
 */
export const MIGRATION_LOCK_KEY = 0x74747367;

/**
 * Applies the migrations not yet recorded in `schema_migrations`, each in its own transaction,
 * while holding pg_advisory_lock: replicas that start together on an empty database wait for
 * each other here, and the later ones find everything applied. Answers the applied versions.
 */
export async function migratePostgres(pool: Pool, migrations: readonly Migration[]): Promise<number[]> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)');
      const applied = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((row) => row.version));
      for (const migration of [...migrations].sort((left, right) => left.version - right.version)) {
        if (applied.has(migration.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [migration.version, migration.name, Date.now()]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw new Error(`database migration ${migration.version} (${migration.name}) failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      return (await client.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')).rows.map((row) => row.version);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

/**
 * migratePostgres on a connection of its own, closed afterwards, with no statement limit: a
 * migration may rewrite a large table, and waits for the advisory lock while another replica
 * migrates. The request-serving pool's limit would cut both.
 */
export async function migrateOnOwnConnection(url: string, migrations: readonly Migration[], onError?: (error: Error) => void): Promise<number[]> {
  const pool = createPostgresPool(url, { max: 1, onError });
  try {
    return await migratePostgres(pool, migrations);
  } finally {
    await pool.end();
  }
}
