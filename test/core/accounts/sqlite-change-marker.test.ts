import Database from 'better-sqlite3';
import { expect } from 'chai';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountService, GatewayError, SqliteAccountStore } from '../../../core';

const FAST_SCRYPT = { cost: 1024, blockSize: 8, parallelization: 1 };

/** Overwrites the file's header ("SQLite format 3"), as a disk fault or a stray write would: SQLite then reads SQLITE_NOTADB. */
function damageHeader(path: string): void {
  const other = new Database(path);
  other.pragma('wal_checkpoint(TRUNCATE)');
  other.close();
  const descriptor = openSync(path, 'r+');
  try {
    writeSync(descriptor, Buffer.alloc(16, 0x41), 0, 16, 0);
  } finally {
    closeSync(descriptor);
  }
}

/**
 * The change marker (`PRAGMA data_version`) is asked before every cached key is trusted; it reads
 * the database as any statement does, so a lock or a damaged file must meet the same retry and
 * mapping (503 TTS_ERR_UNAVAILABLE), not escape as a raw SQLite error (a 500).
 */
describe('core SqliteAccountStore: the change marker on a locked or damaged database', function () {
  this.timeout(10_000);
  let directory: string;
  let path: string;
  let store: SqliteAccountStore;
  let service: AccountService;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'sqlite-marker-'));
    path = join(directory, 'gateway.db');
    store = new SqliteAccountStore(path, undefined, { busyTimeoutMs: 200 });
    service = new AccountService(store, { registration: 'open', scrypt: FAST_SCRYPT });
  });
  afterEach(async () => {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const nextPass = () => new Promise((resolve) => setImmediate(resolve));

  it('a damaged file answers 503 database_damaged to a request with a cached key', async () => {
    const { apiKey } = await service.register('ada@example.com', 'password-1');
    await service.authenticate(apiKey.apiKey);
    damageHeader(path);
    await nextPass();
    const error = await service.authenticate(apiKey.apiKey).then(
      () => expect.fail('the key was trusted without the database'),
      (failure: unknown) => failure,
    );
    expect(error).to.be.instanceOf(GatewayError);
    const gatewayError = error as GatewayError;
    expect([gatewayError.status, gatewayError.details, gatewayError.logContext]).to.deep.equal([503, [{ reason: 'database_damaged' }], { databaseCode: 'SQLITE_NOTADB' }]);
  });

  it('a read held up by another process (SQLITE_BUSY_RECOVERY) is tried again, and the request goes through', async () => {
    const { apiKey } = await service.register('ada@example.com', 'password-1');
    await service.authenticate(apiKey.apiKey);
    // The statement SQLite answers busy twice, as while another process recovers the WAL.
    const statement = (store as unknown as { dataVersion: Database.Statement }).dataVersion;
    const read = statement.get.bind(statement);
    let busy = 2;
    statement.get = ((...parameters: unknown[]) => {
      if (busy > 0) {
        busy -= 1;
        throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY_RECOVERY' });
      }
      return read(...parameters);
    }) as typeof statement.get;
    await nextPass();
    expect((await service.authenticate(apiKey.apiKey)).keyId).to.equal(apiKey.id);
    expect(busy).to.equal(0);
  });
});
