import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccountStore, SqliteAccountStore } from '../../../core';
import { describeAccountStoreContract } from './account-store-contract';
import { describeKeyCapContract } from './key-cap-contract';

describeAccountStoreContract('SQLite in memory (createAccountStore sqlite::memory:)', async () => {
  const store = createAccountStore('sqlite::memory:');
  return { store, release: () => store.close() };
});

describeKeyCapContract('SQLite in memory', async () => {
  const store = createAccountStore('sqlite::memory:');
  return { store, release: () => store.close() };
});

describeAccountStoreContract('SQLite file', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'sqlite-contract-'));
  const store = new SqliteAccountStore(join(directory, 'gateway.db'));
  return {
    store,
    release: async () => {
      await store.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
});
