import { expect } from 'chai';
import { Client, type Pool } from 'pg';
import { MIGRATION_LOCK_KEY, PostgresAccountStore, type GatewayError } from '../../../core';
import { sharedPostgres } from '../../support/servers/shared-servers';
import { StallableTcpProxy } from '../../support/servers/stallable-tcp-proxy';
import { accountRecord, keyRecord } from './account-store-contract';
import { holdPostgresLocks } from '../../support/postgres-lock-holder';
import { STALLED_SERVER_MARGIN_MS } from '../../../core/accounts/postgres-pool';

/** The limit these tests give the store: short, so that a wait past it shows at once. */
const LIMIT_MS = 300;
/** How long an operation may take at most before the test calls it unbounded (the limit, the client's margin, slack). */
const BOUND_MS = 4_000;

/** Settles with the failure, or with a note that the operation went on past BOUND_MS (a hang, told apart from a failure). */
async function failureWithin<T>(operation: Promise<T>): Promise<{ error?: GatewayError; outcome: string }> {
  operation.catch(() => undefined);
  const outcome = await Promise.race([
    operation.then(
      () => ({ outcome: 'succeeded' }),
      (error: unknown) => ({ outcome: 'failed', error: error as GatewayError }),
    ),
    new Promise<{ outcome: string }>((resolve) => setTimeout(() => resolve({ outcome: `still waiting after ${BOUND_MS} ms` }), BOUND_MS).unref()),
  ]);
  return outcome;
}

/** The store's own pool: what its connections were given, read rather than timed. */
const poolOf = (store: PostgresAccountStore): Pool => (store as unknown as { pool: Pool }).pool;

function expectDatabaseUnavailable(error: GatewayError | undefined): void {
  expect(error, 'a failure').to.not.equal(undefined);
  expect(error).to.include({ code: 'TTS_ERR_UNAVAILABLE', status: 503 });
  // The client hears that the database is unavailable; no SQL, no PostgreSQL text.
  expect(error!.message).to.match(/^The account database is unavailable: /);
  expect(error!.message).to.not.match(/SELECT|INSERT|UPDATE|statement|canceling/i);
}

describe('core/accounts PostgreSQL statements have a time limit', function () {
  this.timeout(30_000);
  const stores: PostgresAccountStore[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  async function openStore(url: string): Promise<PostgresAccountStore> {
    const store = new PostgresAccountStore(url, { statementTimeoutMs: LIMIT_MS });
    stores.push(store);
    await store.ready();
    return store;
  }

  it('a key creation that waits for a row lock another session holds fails at the limit with 503, and works once the lock is gone', async () => {
    const url = await (await sharedPostgres()).createDatabase('row_lock');
    const store = await openStore(url);
    const account = accountRecord('locked@example.com');
    await store.createAccountWithKey(account, keyRecord(account.id));
    // The new key's foreign key check must share-lock the account's row: FOR UPDATE forbids it.
    const lock = await holdPostgresLocks(url, [`SELECT id FROM accounts WHERE id = '${account.id}' FOR UPDATE`]);
    try {
      // The server ends a statement (lock waits included) at its connection's statement_timeout.
      expect((await poolOf(store).query('SHOW statement_timeout')).rows).to.deep.equal([{ statement_timeout: `${LIMIT_MS}ms` }]);
      const { error, outcome } = await failureWithin(store.createApiKey(keyRecord(account.id)));
      expect(outcome).to.equal('failed');
      expectDatabaseUnavailable(error);
      expect(error!.details).to.deep.equal([{ reason: 'database_timeout' }]);
    } finally {
      await lock.release();
    }
    await store.createApiKey(keyRecord(account.id));
    expect(await store.listApiKeys(account.id)).to.have.length(2);
  });

  it("the batch writer's transaction waiting for a locked key row fails at the limit, and the next batch is written", async () => {
    const url = await (await sharedPostgres()).createDatabase('batch_lock');
    const store = await openStore(url);
    const account = accountRecord('batch@example.com');
    const key = keyRecord(account.id);
    await store.createAccountWithKey(account, key);
    const lock = await holdPostgresLocks(url, [`SELECT id FROM api_keys WHERE id = '${key.id}' FOR UPDATE`]);
    const batch = { touches: new Map([[key.id, 5_000]]), usage: [], failures: [] };
    try {
      const { error, outcome } = await failureWithin(store.recordActivity(batch));
      expect(outcome).to.equal('failed');
      expectDatabaseUnavailable(error);
    } finally {
      await lock.release();
    }
    await store.recordActivity(batch);
    expect((await store.listApiKeys(account.id))[0].lastUsedAt).to.equal(5_000);
  });

  it('an unknown key lookup behind a table lock fails at the limit (503, not 401 and not a hang)', async () => {
    const url = await (await sharedPostgres()).createDatabase('table_lock');
    const store = await openStore(url);
    const lock = await holdPostgresLocks(url, ['LOCK TABLE api_keys IN ACCESS EXCLUSIVE MODE']);
    try {
      const { error, outcome } = await failureWithin(store.findApiKeyByHash('0'.repeat(64)));
      expect(outcome).to.equal('failed');
      expectDatabaseUnavailable(error);
    } finally {
      await lock.release();
    }
    expect(await store.findApiKeyByHash('0'.repeat(64))).to.equal(undefined);
  });

  it('a server that stops answering fails the query a moment after the limit, and the store works again once it answers', async () => {
    const server = await sharedPostgres();
    const url = await server.createDatabase('stalled');
    const proxy = await StallableTcpProxy.start(server.port);
    try {
      const store = await openStore(url.replace(`:${server.port}/`, `:${proxy.port}/`));
      await store.ping();
      proxy.stall();
      // A silent server cannot end the statement: the client gives up, a margin after the server's limit, never before it.
      expect((poolOf(store).options as { query_timeout?: number }).query_timeout).to.equal(LIMIT_MS + STALLED_SERVER_MARGIN_MS);
      const { error, outcome } = await failureWithin(store.findAccountByEmail('nobody@example.com'));
      expect(outcome).to.equal('failed');
      expectDatabaseUnavailable(error);
      expect(error!.logContext).to.deep.equal({ databaseCode: 'client_query_timeout' });
      proxy.resume();
      expect(await store.findAccountByEmail('nobody@example.com')).to.equal(undefined);
      await store.ping();
    } finally {
      await proxy.close();
    }
  });

  it('a server that accepts a new connection and never answers fails the statement at the limit and margin (503 database_unreachable), not at pg\'s 10 s connect limit', async () => {
    const server = await sharedPostgres();
    const url = await server.createDatabase('stalled_connect');
    const proxy = await StallableTcpProxy.start(server.port);
    try {
      // Migrated on a connection of its own: the store's pool has no connection yet.
      const store = await openStore(url.replace(`:${server.port}/`, `:${proxy.port}/`));
      proxy.stall();
      const { error, outcome } = await failureWithin(store.findApiKeyByHash('0'.repeat(64)));
      expect(outcome).to.equal('failed');
      expectDatabaseUnavailable(error);
      expect(error!.details).to.deep.equal([{ reason: 'database_unreachable' }]);
      // pg's failure has no code: the log line names the condition.
      expect(error!.logContext).to.deep.equal({ databaseCode: 'connect_timeout' });
      // The wait for a connection is bounded as a statement's answer is (read, rather than timed), and both count in one call's deadline.
      expect((poolOf(store).options as { connectionTimeoutMillis?: number }).connectionTimeoutMillis).to.equal(LIMIT_MS + STALLED_SERVER_MARGIN_MS);
      proxy.resume();
      expect(await store.findApiKeyByHash('0'.repeat(64))).to.equal(undefined);
    } finally {
      await proxy.close();
    }
  });

  it('migrations are not cut by the limit: a store waits for the migration lock longer than it, then migrates', async () => {
    const url = await (await sharedPostgres()).createDatabase('slow_migration');
    // Another replica migrating: it holds the lock for several times the statement limit.
    const other = new Client({ connectionString: url });
    await other.connect();
    await other.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const migration = { version: 1, name: 'slow', sql: 'SELECT pg_sleep(0.6); CREATE TABLE slow (id INTEGER)' };
    const store = new PostgresAccountStore(url, { statementTimeoutMs: LIMIT_MS, migrations: [migration] });
    stores.push(store);
    try {
      setTimeout(() => void other.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]), 4 * LIMIT_MS);
      expect(await store.appliedMigrations()).to.deep.equal([1]);
    } finally {
      await other.end();
    }
  });
});
