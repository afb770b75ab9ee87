import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountService, SQLITE_MIGRATIONS, SqliteAccountStore, type KeyRevocations } from '../../../core';
import { accountRecord, keyRecord } from './account-store-contract';
import { expectGatewayError } from '../../support/gateway-error-assertions';

const FAST_SCRYPT = { cost: 1024, blockSize: 8, parallelization: 1 };

describe('core/accounts key cap', () => {
  let store: SqliteAccountStore;
  let announced: string[];
  let service: AccountService;
  let clock: number;

  beforeEach(() => {
    store = new SqliteAccountStore(':memory:');
    announced = [];
    clock = Date.UTC(2026, 0, 10);
    const revocations: KeyRevocations = { announce: async (keyId) => void announced.push(keyId), listen: () => undefined, isListening: () => true };
    service = new AccountService(store, { registration: 'open', scrypt: FAST_SCRYPT, loginKeyTtlMs: 86_400_000, maxKeysPerAccount: 2, revocations, now: () => (clock += 1) });
  });
  afterEach(() => store.close());

  it('announces a login key evicted at the cap to the other replicas, as a revocation', async () => {
    await service.register('ada@example.com', 'password-1');
    const first = await service.login('ada@example.com', 'password-1');
    const second = await service.login('ada@example.com', 'password-1');
    expect(announced).to.deep.equal([first.apiKey.id]);
    await expectGatewayError(service.authenticate(first.apiKey.apiKey), 'TTS_ERR_UNAUTHORIZED');
    await service.authenticate(second.apiKey.apiKey);
  });

  it('caps keys the operator issues for an existing account (the CLI) as POST /auth/keys', async () => {
    await service.register('ada@example.com', 'password-1');
    await service.provisionKey('ada@example.com', 'ci');
    const error = await expectGatewayError(service.provisionKey('ada@example.com', 'more'), 'TTS_ERR_CONFLICT');
    expect(error.message).to.include('2 live API keys');
    expect(announced).to.deep.equal([]);
  });

  it('caps at 100 live keys when the setting is absent', async () => {
    const uncapped = new AccountService(store, { registration: 'open', scrypt: FAST_SCRYPT });
    const { account } = await uncapped.register('bob@example.com', 'password-1');
    for (let index = 1; index < 100; index += 1) await uncapped.createKey(account.id, `key ${index}`);
    await expectGatewayError(uncapped.createKey(account.id, 'one too many'), 'TTS_ERR_CONFLICT');
  });

  it('marks the login keys of a database made before the marker existed, so that a login can make room', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'key-cap-upgrade-'));
    const path = join(directory, 'gateway.db');
    const now = Date.now();
    const account = accountRecord('old@example.com');
    const oldLoginKey = keyRecord(account.id, { name: 'login', createdAt: now - 2_000, expiresAt: now + 86_400_000 });
    try {
      const older = new SqliteAccountStore(path, SQLITE_MIGRATIONS.filter((migration) => migration.version < 14));
      await older.createAccountWithKey(account, keyRecord(account.id, { createdAt: now - 3_000 }));
      await older.createApiKey(oldLoginKey);
      await older.close();
      const upgraded = new SqliteAccountStore(path);
      try {
        expect(await upgraded.findApiKeyByHash(oldLoginKey.keyHash)).to.include({ madeByLogin: true });
        const result = await upgraded.createApiKeyWithinCap(keyRecord(account.id, { createdAt: now, madeByLogin: true }), { maxLiveKeys: 2, evictLoginKeys: true, now });
        expect(result).to.deep.equal({ outcome: 'created', evictedKeyIds: [oldLoginKey.id] });
      } finally {
        await upgraded.close();
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
