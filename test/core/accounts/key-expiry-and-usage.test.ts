import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { AccountService, LoginThrottle, MemoryWindowCounters, SQLITE_MIGRATIONS, SqliteAccountStore, mintApiKey, verifyPassword } from '../../../core';
import { expectGatewayError } from '../../support/gateway-error-assertions';

const FAST_SCRYPT = { cost: 1024, blockSize: 8, parallelization: 1 };
const DAY = 86_400_000;

describe('core/accounts key expiry', () => {
  let store: SqliteAccountStore;
  let clock: number;
  let service: AccountService;

  beforeEach(() => {
    store = new SqliteAccountStore(':memory:');
    clock = Date.UTC(2025, 0, 10, 12);
    service = new AccountService(store, { registration: 'open', scrypt: FAST_SCRYPT, loginKeyTtlMs: 30 * DAY, now: () => clock });
  });
  afterEach(() => store.close());

  it('issues login keys that expire after loginKeyTtl; the registration key does not expire', async () => {
    const registered = await service.register('ada@example.com', 'password-1');
    expect(registered.apiKey.expiresAt).to.equal(null);
    const login = await service.login('ada@example.com', 'password-1');
    expect(login.apiKey.expiresAt).to.equal(clock + 30 * DAY);
    clock += 30 * DAY - 1;
    await service.authenticate(login.apiKey.apiKey);
    clock += 1;
    const error = await expectGatewayError(service.authenticate(login.apiKey.apiKey), 'TTS_ERR_UNAUTHORIZED');
    expect(error.message).to.include('expired');
    await service.authenticate(registered.apiKey.apiKey);
  });

  it('lets a created key carry its own lifetime, shows expiresAt and hides expired keys from the listing', async () => {
    const { account } = await service.register('ada@example.com', 'password-1');
    const shortLived = await service.createKey(account.id, 'ci', 3600);
    const forever = await service.createKey(account.id, 'laptop');
    expect(shortLived.expiresAt).to.equal(clock + 3_600_000);
    expect(forever.expiresAt).to.equal(null);
    expect((await service.listKeys(account.id)).map((key) => [key.name, key.expiresAt])).to.deep.equal([
      ['default', null],
      ['ci', clock + 3_600_000],
      ['laptop', null],
    ]);
    clock += 3_600_000;
    expect((await service.listKeys(account.id)).map((key) => key.name)).to.deep.equal(['default', 'laptop']);
  });

  it('refuses a lifetime that is not a whole number of seconds between a minute and ten years', async () => {
    const { account } = await service.register('ada@example.com', 'password-1');
    for (const lifetime of [59, 1.5, -60, 11 * 366 * 86_400]) {
      const error = await expectGatewayError(service.createKey(account.id, 'x', lifetime), 'TTS_ERR_VALIDATION');
      expect(error.details[0]).to.include({ field: 'expiresIn' });
    }
  });

  it('sweeps expired keys from the store', async () => {
    const { account } = await service.register('ada@example.com', 'password-1');
    await service.createKey(account.id, 'ci', 60);
    await service.login('ada@example.com', 'password-1');
    expect(await service.sweepExpiredKeys()).to.equal(0);
    clock += 60_000;
    expect(await service.sweepExpiredKeys()).to.equal(1);
    clock += 30 * DAY;
    expect(await service.sweepExpiredKeys()).to.equal(1);
    expect((await store.listApiKeys(account.id)).map((key) => key.name)).to.deep.equal(['default']);
  });

  it('upgrades a database written before expiry existed: its keys keep working and never expire', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'accounts-upgrade-'));
    try {
      const path = join(directory, 'gateway.db');
      await new SqliteAccountStore(path, SQLITE_MIGRATIONS.filter((migration) => migration.version === 1)).close();
      // Rows as the release before expiry wrote them.
      const minted = mintApiKey();
      const raw = new Database(path);
      raw.prepare("INSERT INTO accounts (id, email, password_hash, created_at) VALUES ('a1', 'ada@example.com', 'scrypt$1024$8$1$AA$AA', 1)").run();
      raw.prepare("INSERT INTO api_keys (id, account_id, name, prefix, key_hash, created_at) VALUES ('k1', 'a1', 'default', ?, ?, 1)").run(minted.prefix, minted.hash);
      raw.close();
      const upgraded = new SqliteAccountStore(path);
      const after = new AccountService(upgraded, { registration: 'open', scrypt: FAST_SCRYPT });
      const { account } = await after.authenticate(minted.value);
      expect((await after.listKeys(account.id))[0].expiresAt).to.equal(null);
      await upgraded.close();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('core/accounts login: the same work for an unknown email as for a wrong password', () => {
  it('checks one hash of the same kind either way', async () => {
    const store = new SqliteAccountStore(':memory:');
    const checked: string[] = [];
    const service = new AccountService(store, {
      registration: 'open',
      scrypt: FAST_SCRYPT,
      verifyPassword: (password, stored) => {
        checked.push(stored);
        return verifyPassword(password, stored);
      },
    });
    await service.register('ada@example.com', 'password-1');
    await expectGatewayError(service.login('ada@example.com', 'wrong password'), 'TTS_ERR_UNAUTHORIZED');
    await expectGatewayError(service.login('nobody@example.com', 'wrong password'), 'TTS_ERR_UNAUTHORIZED');
    await expectGatewayError(service.login('nobody-else@example.com', 'wrong password'), 'TTS_ERR_UNAUTHORIZED');
    expect(checked).to.have.length(3);
    const parameters = checked.map((hash) => hash.split('$').slice(0, 4).join('$'));
    expect(new Set(parameters).size).to.equal(1);
    // The decoy is one hash made once, not a new one per unknown email.
    expect(checked[1]).to.not.equal(checked[0]);
    expect(checked[2]).to.equal(checked[1]);
    await store.close();
  });
});

describe('core/accounts LoginThrottle', () => {
  const throttle = (failures = 3, addressFailures = 5) => new LoginThrottle({ failures, addressFailures, addressRegistrations: 1_000, windowMs: 60_000, counters: new MemoryWindowCounters() });

  it('refuses an email after a handful of failures with 429 and Retry-After, others still pass', async () => {
    const subject = throttle();
    for (let index = 0; index < 3; index += 1) await subject.attempt('login', index === 0 ? 'ada@example.com' : 'Ada@Example.com ', `10.0.0.${index}`);
    const error = await expectGatewayError(subject.attempt('login', 'ada@example.com', '10.0.0.9'), 'TTS_ERR_RATE_LIMITED');
    expect(error.status).to.equal(429);
    expect(error.retryAfterSeconds).to.be.within(1, 60);
    await subject.attempt('login', 'bob@example.com', '10.0.0.9');
    await subject.attempt('register', 'ada@example.com', '10.0.0.9');
  });

  it('refuses a client address after its failures, whatever the email', async () => {
    const subject = throttle(3, 5);
    for (let index = 0; index < 5; index += 1) await subject.attempt('login', `user${index}@example.com`, '10.0.0.1');
    await expectGatewayError(subject.attempt('login', 'new@example.com', '10.0.0.1'), 'TTS_ERR_RATE_LIMITED');
    await subject.attempt('login', 'new@example.com', '10.0.0.2');
  });

  it('counts attempts made at once before any of them is answered', async () => {
    const subject = throttle(3, 50);
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, (_, index) => subject.attempt('login', 'ada@example.com', `10.0.1.${index}`)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).to.have.length(3);
  });

  it('clears an email’s failures on success; a success is not an address failure either', async () => {
    const subject = throttle(3, 3);
    for (let index = 0; index < 2; index += 1) await subject.attempt('login', 'ada@example.com', '10.0.0.1');
    await (await subject.attempt('login', 'ada@example.com', '10.0.0.2')).succeeded();
    for (let index = 0; index < 2; index += 1) await subject.attempt('login', 'ada@example.com', '10.0.0.2');
    await subject.attempt('login', 'ada@example.com', '10.0.0.2');
  });

  it('does not count an attempt withdrawn (a server fault)', async () => {
    const subject = throttle(2, 5);
    for (let index = 0; index < 3; index += 1) await (await subject.attempt('login', 'ada@example.com', '10.0.0.1')).withdraw();
    await subject.attempt('login', 'ada@example.com', '10.0.0.1');
    await subject.attempt('login', 'ada@example.com', '10.0.0.1');
    await expectGatewayError(subject.attempt('login', 'ada@example.com', '10.0.0.1'), 'TTS_ERR_RATE_LIMITED');
  });
});

describe('core/accounts usage report', () => {
  let store: SqliteAccountStore;
  let clock: number;
  let service: AccountService;

  beforeEach(() => {
    store = new SqliteAccountStore(':memory:');
    clock = Date.UTC(2025, 0, 30, 23, 59);
    service = new AccountService(store, { registration: 'open', scrypt: FAST_SCRYPT, now: () => clock });
  });
  afterEach(() => store.close());

  it('sums requests, characters, audio seconds, cache hits and errors per model and per UTC day', async () => {
    const { account, apiKey } = await service.register('ada@example.com', 'password-1');
    await service.recordUsage(account.id, apiKey.id, { model: 'tts-1', characters: 10, bytes: 100, audioSeconds: 1.1 });
    await service.recordUsage(account.id, apiKey.id, { model: 'tts-1', characters: 5, bytes: 50, audioSeconds: 0.2, cacheHit: true });
    await service.recordFailedUsage(account.id, 'espeak-ng');
    clock += 60_000;
    await service.recordUsage(account.id, apiKey.id, { model: 'espeak-ng', characters: 7, bytes: 70 });
    const report = await service.usageReport(account.id, { from: '2025-01-30', to: '2025-01-31' });
    expect(report).to.deep.equal({
      from: '2025-01-30',
      to: '2025-01-31',
      totals: { requests: 4, characters: 22, audioSeconds: 1.3, cacheHits: 1, errors: 1 },
      byModel: [
        { model: 'espeak-ng', requests: 2, characters: 7, audioSeconds: 0, cacheHits: 0, errors: 1 },
        { model: 'tts-1', requests: 2, characters: 15, audioSeconds: 1.3, cacheHits: 1, errors: 0 },
      ],
      byDay: [
        { date: '2025-01-30', requests: 3, characters: 15, audioSeconds: 1.3, cacheHits: 1, errors: 1 },
        { date: '2025-01-31', requests: 1, characters: 7, audioSeconds: 0, cacheHits: 0, errors: 0 },
      ],
    });
    expect((await service.usageReport(account.id, { from: '2025-01-31', to: '2025-01-31' })).totals.requests).to.equal(1);
    // Durable: another store on the same data would see the same rows; here, the per-request log still has them too.
    expect(await store.listUsage(account.id)).to.have.length(3);
  });

  it('defaults to the last 30 days and checks the dates', async () => {
    const { account } = await service.register('ada@example.com', 'password-1');
    expect(await service.usageReport(account.id)).to.include({ from: '2025-01-01', to: '2025-01-30' });
    for (const [range, field] of [
      [{ from: '2025-1-01' }, 'from'],
      [{ to: '2025-02-30' }, 'to'],
      [{ from: '2025-02-01', to: '2025-01-01' }, 'from'],
      [{ from: '2023-01-01', to: '2025-01-01' }, 'from'],
    ] as const) {
      const error = await expectGatewayError(service.usageReport(account.id, range), 'TTS_ERR_VALIDATION');
      expect(error.details[0]).to.include({ field });
    }
  });

  it('stores per-account limit overrides: set, keep, clear', async () => {
    const { account } = await service.register('ada@example.com', 'password-1');
    expect(await store.getAccountLimits(account.id)).to.deep.equal({});
    expect(await store.setAccountLimits(account.id, { requestsPerMinute: 10, charactersPerDay: 5000 })).to.equal(true);
    await store.setAccountLimits(account.id, { charactersPerDay: 9000 });
    expect(await store.getAccountLimits(account.id)).to.deep.equal({ requestsPerMinute: 10, charactersPerDay: 9000 });
    await store.setAccountLimits(account.id, { requestsPerMinute: null });
    expect(await store.getAccountLimits(account.id)).to.deep.equal({ charactersPerDay: 9000 });
    expect(await store.setAccountLimits('no-such-account', { requestsPerMinute: 1 })).to.equal(false);
  });
});
