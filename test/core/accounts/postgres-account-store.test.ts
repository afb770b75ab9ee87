import { expect } from 'chai';
import { createAccountStore, migratePostgres, openAccountStore, PostgresAccountStore, POSTGRES_MIGRATIONS } from '../../../core';
import { createPostgresPool } from '../../../core/accounts/postgres-pool';
import { sharedPostgres } from '../../support/servers/shared-servers';
import { accountRecord, describeAccountStoreContract, keyRecord } from './account-store-contract';
import { describeKeyCapContract } from './key-cap-contract';

describeAccountStoreContract('PostgreSQL (openAccountStore postgres://)', async () => {
  const url = await (await sharedPostgres()).createDatabase('contract');
  const store = await openAccountStore(url);
  return { store, release: () => store.close() };
});

// Several connections: keys made at once for one account really race on the server.
describeKeyCapContract('PostgreSQL', async () => {
  const url = await (await sharedPostgres()).createDatabase('keycap');
  const store = await openAccountStore(url);
  return { store, release: () => store.close() };
});

describe('core/accounts PostgreSQL migrations', () => {
  it('lets several stores migrate one empty database at the same time: each migration runs once', async () => {
    const server = await sharedPostgres();
    const url = await server.createDatabase('race');
    const stores = Array.from({ length: 6 }, () => new PostgresAccountStore(url, { max: 2 }));
    try {
      const applied = await Promise.all(stores.map((store) => store.appliedMigrations()));
      const expected = POSTGRES_MIGRATIONS.map((migration) => migration.version);
      for (const versions of applied) expect(versions).to.deep.equal(expected);
      // Every store works on the one schema: an account made through one is seen by the others.
      const account = accountRecord('shared@example.com');
      expect(await stores[0].createAccountWithKey(account, keyRecord(account.id))).to.equal('created');
      for (const store of stores) expect((await store.findAccountByEmail('shared@example.com'))?.id).to.equal(account.id);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
    const pool = createPostgresPool(url);
    const { rows } = await pool.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version').finally(() => pool.end());
    expect(rows.map((row) => row.version)).to.deep.equal(POSTGRES_MIGRATIONS.map((migration) => migration.version));
  });

  it('applies a later migration to an existing database and keeps its data', async () => {
    const url = await (await sharedPostgres()).createDatabase('upgrade');
    const first = await openAccountStore(url);
    const account = accountRecord('kept@example.com');
    await first.createAccountWithKey(account, keyRecord(account.id));
    await first.close();
    const next = { version: 999, name: 'extra', sql: 'CREATE TABLE extra (id INTEGER)' };
    const upgraded = new PostgresAccountStore(url, { migrations: [...POSTGRES_MIGRATIONS, next] });
    try {
      expect(await upgraded.appliedMigrations()).to.deep.equal([...POSTGRES_MIGRATIONS.map((migration) => migration.version), 999]);
      expect((await upgraded.findAccountByEmail('kept@example.com'))?.id).to.equal(account.id);
    } finally {
      await upgraded.close();
    }
  });

  it('marks the login keys of a database made before the marker existed (migration 14), so that a login can make room', async () => {
    const url = await (await sharedPostgres()).createDatabase('loginmarker');
    const now = Date.now();
    const account = accountRecord('old@example.com');
    const oldLoginKey = keyRecord(account.id, { name: 'login', createdAt: now - 2_000, expiresAt: now + 86_400_000 });
    const namedLogin = keyRecord(account.id, { name: 'login', createdAt: now - 1_000 });
    const older = new PostgresAccountStore(url, { migrations: POSTGRES_MIGRATIONS.filter((migration) => migration.version < 14) });
    await older.createAccountWithKey(account, keyRecord(account.id, { createdAt: now - 3_000 }));
    await older.createApiKey(oldLoginKey);
    await older.createApiKey(namedLogin);
    await older.close();
    const upgraded = new PostgresAccountStore(url);
    try {
      expect(await upgraded.findApiKeyByHash(oldLoginKey.keyHash)).to.include({ madeByLogin: true });
      expect(await upgraded.findApiKeyByHash(namedLogin.keyHash)).to.include({ madeByLogin: false });
      const result = await upgraded.createApiKeyWithinCap(keyRecord(account.id, { createdAt: now, madeByLogin: true }), { maxLiveKeys: 3, evictLoginKeys: true, now });
      expect(result).to.deep.equal({ outcome: 'created', evictedKeyIds: [oldLoginKey.id] });
    } finally {
      await upgraded.close();
    }
  });

  it('rolls back a failing migration whole and reports which one failed', async () => {
    const url = await (await sharedPostgres()).createDatabase('broken');
    const pool = createPostgresPool(url);
    try {
      const broken = { version: 1, name: 'half done', sql: 'CREATE TABLE half (id INTEGER); SELECT no_such_function()' };
      const error = await migratePostgres(pool, [broken]).then(
        () => undefined,
        (failure: unknown) => failure as Error,
      );
      expect(error?.message).to.match(/migration 1 \(half done\) failed/);
      const tables = await pool.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'half'");
      expect(tables.rowCount).to.equal(0);
      // The lock was given back: a good migration runs next.
      expect(await migratePostgres(pool, POSTGRES_MIGRATIONS)).to.deep.equal(POSTGRES_MIGRATIONS.map((migration) => migration.version));
    } finally {
      await pool.end();
    }
  });

  it('takes postgres:// and postgresql:// URLs', async () => {
    const url = await (await sharedPostgres()).createDatabase('scheme');
    for (const variant of [url, url.replace(/^postgres:/, 'postgresql:')]) {
      const store = createAccountStore(variant);
      expect(store).to.be.instanceOf(PostgresAccountStore);
      await (store as PostgresAccountStore).ready();
      await store.close();
    }
  });

  it('fails to open an unreachable database with a message that does not show the password', async () => {
    const server = await sharedPostgres();
    const error = await openAccountStore(`postgres://postgres:s3cret-word@127.0.0.1:${server.port}/no_such_database`).then(
      () => undefined,
      (failure: unknown) => failure as Error,
    );
    expect(error?.message).to.match(/PostgreSQL database could not be opened/).and.match(/no_such_database/);
    expect(error?.message).to.not.include('s3cret-word');
  });
});
