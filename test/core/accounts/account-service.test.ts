import { expect } from 'chai';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountService, SqliteAccountStore, hashApiKey } from '../../../core';
import { expectGatewayError } from '../../support/gateway-error-assertions';

const FAST_SCRYPT = { cost: 1024, blockSize: 8, parallelization: 1 };

describe('core/accounts AccountService', () => {
  let store: SqliteAccountStore;
  let clock: number;
  let service: AccountService;

  beforeEach(() => {
    store = new SqliteAccountStore(':memory:');
    clock = 1_700_000_000_000;
    service = new AccountService(store, { registration: 'open', scrypt: FAST_SCRYPT, now: () => clock });
  });
  afterEach(() => store.close());

  it('registers an account and issues a recognisable key', async () => {
    const { account, apiKey } = await service.register('  Ada@Example.COM ', 'correct horse');
    expect(account.email).to.equal('ada@example.com');
    expect(apiKey.apiKey).to.match(/^ttsg_[A-Za-z0-9_-]{43}$/);
    expect(apiKey.prefix).to.equal(apiKey.apiKey.slice(0, apiKey.prefix.length));
    expect(apiKey.prefix.length).to.be.lessThan(16);
    const authenticated = await service.authenticate(apiKey.apiKey);
    expect(authenticated).to.deep.equal({ account, keyId: apiKey.id });
  });

  it('refuses a duplicate email (case-insensitive) with 409', async () => {
    await service.register('ada@example.com', 'password-1');
    const error = await expectGatewayError(service.register('ADA@example.com', 'password-2'));
    expect(error.code).to.equal('TTS_ERR_CONFLICT');
    expect(error.status).to.equal(409);
  });

  it('refuses registration when it is closed', async () => {
    const closed = new AccountService(store, { registration: 'closed', scrypt: FAST_SCRYPT });
    const error = await expectGatewayError(closed.register('ada@example.com', 'password-1'));
    expect(error.status).to.equal(403);
    expect(error.code).to.equal('TTS_ERR_FORBIDDEN');
  });

  it('validates the email shape and the password length', async () => {
    expect((await expectGatewayError(service.register('not-an-email', 'password-1'))).details[0]).to.include({ field: 'email' });
    expect((await expectGatewayError(service.register('a@b', 'password-1'))).status).to.equal(400);
    const short = await expectGatewayError(service.register('ada@example.com', 'seven77'));
    expect(short.details[0]).to.include({ field: 'password' });
    await service.register('ada@example.com', 'eight888');
  });

  it('logs in with a new key, and fails alike for a wrong password and an unknown email', async () => {
    const registered = await service.register('ada@example.com', 'password-1');
    const login = await service.login('ADA@example.com', 'password-1');
    expect(login.apiKey.apiKey).to.not.equal(registered.apiKey.apiKey);
    expect((await service.authenticate(login.apiKey.apiKey)).account.id).to.equal(registered.account.id);
    const wrongPassword = await expectGatewayError(service.login('ada@example.com', 'password-2'));
    const unknownEmail = await expectGatewayError(service.login('bob@example.com', 'password-1'));
    expect(wrongPassword.status).to.equal(401);
    expect(unknownEmail.status).to.equal(401);
    expect(wrongPassword.message).to.equal(unknownEmail.message);
  });

  it('refuses missing, malformed and unknown keys with 401', async () => {
    await service.register('ada@example.com', 'password-1');
    for (const key of [undefined, '', 'nope', `ttsg_${'A'.repeat(43)}`]) {
      const error = await expectGatewayError(service.authenticate(key));
      expect(error.status).to.equal(401);
    }
  });

  it('stores only hashes: neither the key nor the password is in the database', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'accounts-'));
    const fileStore = new SqliteAccountStore(join(directory, 'gateway.db'));
    try {
      const fileService = new AccountService(fileStore, { registration: 'open', scrypt: FAST_SCRYPT });
      const { account, apiKey } = await fileService.register('ada@example.com', 'hunter2-password');
      const created = await fileService.createKey(account.id, 'ci');
      const rows = await fileStore.listApiKeys(account.id);
      expect(rows.map((row) => row.keyHash)).to.deep.equal([hashApiKey(apiKey.apiKey), hashApiKey(created.apiKey)]);
      await fileStore.close();
      const bytes = readdirSync(directory).map((file) => readFileSync(join(directory, file)).toString('latin1')).join('');
      expect(bytes).to.include(hashApiKey(apiKey.apiKey));
      expect(bytes).to.not.include(apiKey.apiKey);
      expect(bytes).to.not.include(created.apiKey);
      expect(bytes).to.not.include('hunter2-password');
      expect(bytes).to.match(/scrypt\$1024\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+/);
    } finally {
      await fileStore.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('lists keys without the key or its hash, and records last use', async () => {
    const { account, apiKey } = await service.register('ada@example.com', 'password-1');
    const second = await service.createKey(account.id, 'laptop');
    clock += 5_000;
    await service.authenticate(second.apiKey);
    const keys = await service.listKeys(account.id);
    expect(keys.map((key) => key.name)).to.deep.equal(['default', 'laptop']);
    for (const key of keys) expect(Object.keys(key).sort()).to.deep.equal(['createdAt', 'expiresAt', 'id', 'lastUsedAt', 'name', 'prefix']);
    expect(JSON.stringify(keys)).to.not.include(apiKey.apiKey).and.not.include(hashApiKey(apiKey.apiKey));
    expect(keys[1].lastUsedAt).to.equal(clock);
    expect(keys[0].lastUsedAt).to.equal(null);
  });

  it('revokes a key at once, and only the owner can', async () => {
    const ada = await service.register('ada@example.com', 'password-1');
    const bob = await service.register('bob@example.com', 'password-1');
    const spare = await service.createKey(ada.account.id, 'spare');
    await service.authenticate(spare.apiKey);
    const foreign = await expectGatewayError(service.revokeKey(bob.account.id, spare.id));
    expect(foreign.status).to.equal(404);
    await service.authenticate(spare.apiKey);
    await service.revokeKey(ada.account.id, spare.id);
    expect((await expectGatewayError(service.authenticate(spare.apiKey))).status).to.equal(401);
    expect((await expectGatewayError(service.revokeKey(ada.account.id, spare.id))).status).to.equal(404);
    expect((await service.listKeys(ada.account.id)).map((key) => key.id)).to.deep.equal([ada.apiKey.id]);
    await service.authenticate(ada.apiKey.apiKey);
  });

  it('validates key names', async () => {
    const { account } = await service.register('ada@example.com', 'password-1');
    expect((await expectGatewayError(service.createKey(account.id, '   '))).details[0]).to.include({ field: 'name' });
    expect((await expectGatewayError(service.createKey(account.id, 'x'.repeat(101)))).status).to.equal(400);
  });

  it('records usage per account and key', async () => {
    const { account, apiKey } = await service.register('ada@example.com', 'password-1');
    await service.recordUsage(account.id, apiKey.id, { model: 'espeak', characters: 12, bytes: 3456 });
    expect(await store.listUsage(account.id)).to.deep.equal([
      { accountId: account.id, keyId: apiKey.id, model: 'espeak', characters: 12, bytes: 3456, createdAt: clock },
    ]);
  });
});
