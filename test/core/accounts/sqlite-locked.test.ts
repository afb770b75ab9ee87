import Database from 'better-sqlite3';
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccountStore, GatewayError, SqliteAccountStore, type AccountStore, type ApiKeyRecord } from '../../../core';

/** The busy timeout of these stores: short, so that a wait past it shows at once. */
const BUSY_TIMEOUT_MS = 200;

const account = { id: 'account-1', email: 'ada@example.com', passwordHash: 'scrypt$hash', createdAt: 1 };
const keyRecord = (id: string): ApiKeyRecord => ({ id, accountId: account.id, name: id, prefix: 'ttsg_abc', keyHash: `hash-${id}`, createdAt: 2, lastUsedAt: null, revokedAt: null, expiresAt: null });

/** What a statement that waited out the busy timeout rejects with: 503, no SQL or SQLite text. */
async function expectLocked(pending: Promise<unknown>, limit = '200 ms'): Promise<void> {
  const error = await pending.then(
    () => expect.fail('the statement went through the lock'),
    (failure: unknown) => failure,
  );
  expect(error).to.be.instanceOf(GatewayError);
  const gatewayError = error as GatewayError;
  expect(gatewayError.code).to.equal('TTS_ERR_UNAVAILABLE');
  expect(gatewayError.status).to.equal(503);
  expect(gatewayError.details).to.deep.equal([{ reason: 'database_timeout' }]);
  expect(gatewayError.message).to.equal(`The account database is unavailable: another connection held its lock for more than ${limit}`);
  expect(gatewayError.logContext).to.deep.equal({ databaseCode: 'SQLITE_BUSY' });
  expect(gatewayError.message).to.not.match(/INSERT|UPDATE|api_keys|locked/);
}

/** How long the store's statements wait for another connection's lock (read, rather than timed). */
function lockWaitOf(store: AccountStore): unknown {
  return (store as unknown as { busyTimeoutMs: number }).busyTimeoutMs;
}

/**
 * A SQLite database another process writes to (the CLI, a sqlite3 shell holding a transaction):
 * a statement that waits past the busy timeout fails with 503 TTS_ERR_UNAVAILABLE, as
 * PostgreSQL's timed-out statement does, instead of an unmapped SQLITE_BUSY (a 500).
 */
describe('core SqliteAccountStore: a database locked by another connection', function () {
  this.timeout(10_000);
  let directory: string;
  let path: string;
  let store: SqliteAccountStore;
  let holder: Database.Database;

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'sqlite-locked-'));
    path = join(directory, 'gateway.db');
    store = new SqliteAccountStore(path, undefined, { busyTimeoutMs: BUSY_TIMEOUT_MS });
    await store.createAccountWithKey(account, keyRecord('key-1'));
    holder = new Database(path);
  });
  afterEach(async () => {
    if (holder.inTransaction) holder.exec('ROLLBACK');
    holder.close();
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  for (const begin of ['BEGIN IMMEDIATE', 'BEGIN EXCLUSIVE']) {
    it(`${begin} held elsewhere: writes answer 503 database_timeout at the busy timeout; reads go on (WAL); once released, writes go through`, async () => {
      holder.exec(begin);
      expect(lockWaitOf(store)).to.equal(BUSY_TIMEOUT_MS);
      await expectLocked(store.createApiKey(keyRecord('key-2')));
      await expectLocked(store.createAccountWithKey({ ...account, id: 'account-2', email: 'bob@example.com' }, keyRecord('key-3')));
      await expectLocked(store.revokeApiKey(account.id, 'key-1', 3));
      await expectLocked(store.recordActivity({ touches: new Map([['key-1', 4]]), usage: [], failures: [] }));
      // Readers never wait for a writer in WAL mode: an unknown key's lookup still answers.
      expect(await store.findApiKeyByHash('hash-key-1')).to.include({ id: 'key-1' });
      expect(await store.findApiKeyByHash('hash-unknown')).to.equal(undefined);
      holder.exec('ROLLBACK');
      await store.createApiKey(keyRecord('key-2'));
      expect((await store.listApiKeys(account.id)).map((key) => key.id)).to.deep.equal(['key-1', 'key-2']);
    });
  }

  it('the wait for the lock holds nothing else: a timer set during it runs (here it releases the lock), other calls are answered, and the write then goes through', async () => {
    holder.exec('BEGIN IMMEDIATE');
    const events: string[] = [];
    // SQLite's own busy wait would sleep the whole process until its timeout: this timer would run
    // only after the write had failed with 503, and the read below would wait as long.
    setTimeout(() => {
      events.push('timer ran');
      holder.exec('ROLLBACK');
    }, 0);
    const write = store.createApiKey(keyRecord('key-2')).then(
      () => events.push('write went through'),
      (error: unknown) => events.push(`write failed: ${(error as Error).message}`),
    );
    expect(await store.findApiKeyByHash('hash-key-1')).to.include({ id: 'key-1' });
    events.push('read answered');
    await write;
    expect(events).to.deep.equal(['read answered', 'timer ran', 'write went through']);
    expect((await store.listApiKeys(account.id)).map((key) => key.id)).to.deep.equal(['key-1', 'key-2']);
  });

  it('other failures pass as they were: a duplicate email is still a duplicate, a duplicate key id a constraint error', async () => {
    expect(await store.createAccountWithKey({ ...account, id: 'account-2' }, keyRecord('key-9'))).to.equal('duplicate-email');
    const duplicate = await store.createApiKey(keyRecord('key-1')).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(duplicate).to.not.be.instanceOf(GatewayError);
    expect((duplicate as { code?: string }).code).to.match(/^SQLITE_CONSTRAINT/);
  });

  it('createAccountStore gives a sqlite: store database.statementTimeout as its busy timeout', async () => {
    const configured: AccountStore = createAccountStore(`sqlite:${path}`, { statementTimeoutMs: 300 });
    try {
      holder.exec('BEGIN IMMEDIATE');
      expect(lockWaitOf(configured)).to.equal(300);
      await expectLocked(configured.createApiKey(keyRecord('key-4')), '300 ms');
    } finally {
      await configured.close?.();
    }
  });

  it('a full disk and a file that cannot be written answer 503 as well, each with its reason, no SQL or SQLite text', async () => {
    const failureOf = (pending: Promise<unknown>) =>
      pending.then(
        () => expect.fail('the write went through'),
        (failure: unknown) => failure as GatewayError,
      );
    const database = (store as unknown as { database: Database.Database }).database;
    // The disk full, as SQLite sees it: no page may be added.
    database.pragma(`max_page_count = ${database.pragma('page_count', { simple: true }) as number}`);
    const full = await failureOf(store.createApiKey(keyRecord('key-big'.padEnd(60_000, 'x'))));
    expect(full).to.be.instanceOf(GatewayError);
    expect([full.status, full.message, full.details]).to.deep.equal([503, 'The account database is unavailable: its disk is full', [{ reason: 'database_full' }]]);
    expect(full.logContext).to.deep.equal({ databaseCode: 'SQLITE_FULL' });
    // It lasts until the operator makes room: not worth a client's immediate retry (x-should-retry: false on /v1).
    expect(full.retryable).to.equal(false);
    database.pragma('max_page_count = 1073741823');
    // A file that cannot be written (a read-only mount, as SQLite sees it).
    database.pragma('query_only = ON');
    const readOnly = await failureOf(store.createApiKey(keyRecord('key-3')));
    expect([readOnly.status, readOnly.message, readOnly.details]).to.deep.equal([503, 'The account database is unavailable: its file cannot be read or written', [{ reason: 'database_unreachable' }]]);
    expect(readOnly.retryable).to.equal(true);
    database.pragma('query_only = OFF');
    await store.createApiKey(keyRecord('key-3'));
  });
});
