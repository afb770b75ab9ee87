import { Client } from 'pg';

/** Another session holding locks in an open transaction, as a long job or a stuck client would. */
export async function holdPostgresLocks(url: string, statements: readonly string[]): Promise<{ release(): Promise<void> }> {
  const holder = new Client({ connectionString: url });
  await holder.connect();
  await holder.query('BEGIN');
  for (const statement of statements) await holder.query(statement);
  return {
    release: async () => {
      await holder.query('ROLLBACK');
      await holder.end();
    },
  };
}
