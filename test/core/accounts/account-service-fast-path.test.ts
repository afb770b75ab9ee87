import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountService, SqliteAccountStore, type AccountActivity, type ApiKeyRecord } from '../../../core';
import { expectGatewayError } from '../../support/gateway-error-assertions';

const FAST_SCRYPT = { cost: 1024, blockSize: 8, parallelization: 1 };

/** A SQLite store that counts key lookups, can hold one lookup open, and can fail its batched writes. */
class InstrumentedStore extends SqliteAccountStore {
  keyLookups = 0;
  failWrites = false;
  readonly batches: AccountActivity[] = [];
  private gate: Promise<void> | undefined;
  private openGate: () => void = () => undefined;

  holdNextLookup(): () => void {
    this.gate = new Promise((resolve) => (this.openGate = resolve));
    return () => this.openGate();
  }

  override async findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    this.keyLookups += 1;
    const found = await super.findApiKeyByHash(keyHash);
    const gate = this.gate;
    this.gate = undefined;
    if (gate) await gate;
    return found;
  }

  override async recordActivity(activity: AccountActivity): Promise<void> {
    if (this.failWrites) throw new Error('SQLITE_FULL: database or disk is full');
    this.batches.push(activity);
    await super.recordActivity(activity);
  }
}

describe('core/accounts AccountService on the request path', () => {
  let directory: string;
  let store: InstrumentedStore;
  let clock: number;
  let activityErrors: unknown[];
  let service: AccountService;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'accounts-fast-'));
    store = new InstrumentedStore(join(directory, 'gateway.db'));
    clock = 1_700_000_000_000;
    activityErrors = [];
    service = new AccountService(store, { registration: 'open', scrypt: FAST_SCRYPT, now: () => clock, onActivityError: (error) => activityErrors.push(error) });
  });
  afterEach(async () => {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('reads a known key from the store once, then answers from memory', async () => {
    const { account, apiKey } = await service.register('ada@example.com', 'password-1');
    for (let call = 0; call < 5; call += 1) expect((await service.authenticate(apiKey.apiKey)).account).to.deep.equal(account);
    expect(store.keyLookups).to.equal(1);
  });

  it('writes lastUsedAt of many requests as one batch, off the request path, and lists it before it is written', async () => {
    const { account, apiKey } = await service.register('ada@example.com', 'password-1');
    for (let call = 0; call < 3; call += 1) {
      clock += 1_000;
      await service.authenticate(apiKey.apiKey);
    }
    expect(store.batches).to.have.length(0);
    expect((await service.listKeys(account.id))[0].lastUsedAt).to.equal(clock);
    await service.flushActivity();
    expect(store.batches).to.have.length(1);
    expect((await store.listApiKeys(account.id))[0].lastUsedAt).to.equal(clock);
  });

  it('keeps authenticating while the store cannot write (a full disk), and writes once it can', async () => {
    const { account, apiKey } = await service.register('ada@example.com', 'password-1');
    await service.authenticate(apiKey.apiKey);
    store.failWrites = true;
    clock += 5_000;
    expect((await service.authenticate(apiKey.apiKey)).keyId).to.equal(apiKey.id);
    await service.recordUsage(account.id, apiKey.id, { model: 'm', characters: 3, bytes: 10 });
    expect(activityErrors.length).to.be.greaterThan(0);
    store.failWrites = false;
    await service.flushActivity();
    expect((await store.listApiKeys(account.id))[0].lastUsedAt).to.equal(clock);
    expect(await store.listUsage(account.id)).to.have.length(1);
  });

  it('refuses a key at once when another process revokes it', async () => {
    const { account, apiKey } = await service.register('ada@example.com', 'password-1');
    const spare = await service.createKey(account.id, 'spare');
    await service.authenticate(spare.apiKey);
    const otherProcess = new SqliteAccountStore(join(directory, 'gateway.db'));
    try {
      await new AccountService(otherProcess, { registration: 'open' }).revokeKey(account.id, spare.id);
    } finally {
      await otherProcess.close();
    }
    // A request sent after the revocation is read in a later pass of the event loop than any
    // check made before it (the store is asked once per pass).
    await new Promise((resolve) => setImmediate(resolve));
    expect((await expectGatewayError(service.authenticate(spare.apiKey))).status).to.equal(401);
    await service.authenticate(apiKey.apiKey);
  });

  it('asks the store for changes once per pass of the event loop, not once per request', async () => {
    const { apiKey } = await service.register('ada@example.com', 'password-1');
    let asked = 0;
    const ask = store.changeMarker.bind(store);
    store.changeMarker = () => {
      asked += 1;
      return ask();
    };
    await Promise.all(Array.from({ length: 20 }, () => service.authenticate(apiKey.apiKey)));
    expect(asked).to.equal(1);
    await new Promise((resolve) => setImmediate(resolve));
    await service.authenticate(apiKey.apiKey);
    expect(asked).to.equal(2);
  });

  it('does not keep a key read just before it was revoked', async () => {
    const { account } = await service.register('ada@example.com', 'password-1');
    const spare = await service.createKey(account.id, 'spare');
    const release = store.holdNextLookup();
    const racing = service.authenticate(spare.apiKey);
    await new Promise((resolve) => setImmediate(resolve));
    await service.revokeKey(account.id, spare.id);
    release();
    await racing; // it read the key before the revocation landed
    expect((await expectGatewayError(service.authenticate(spare.apiKey))).status).to.equal(401);
  });

  it('writes the usage rows of several requests together', async () => {
    const { account, apiKey } = await service.register('ada@example.com', 'password-1');
    await Promise.all([1, 2, 3].map((characters) => service.recordUsage(account.id, apiKey.id, { model: 'm', characters, bytes: 1 })));
    expect(store.batches).to.have.length(1);
    expect((await store.listUsage(account.id)).map((row) => row.characters)).to.deep.equal([1, 2, 3]);
  });
});
