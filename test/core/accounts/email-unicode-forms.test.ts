import { expect } from 'chai';
import { AccountService, LoginThrottle, MemoryWindowCounters, SqliteAccountStore } from '../../../core';
import { expectGatewayError } from '../../support/gateway-error-assertions';

const FAST_SCRYPT = { cost: 1024, blockSize: 8, parallelization: 1 };
/** The same address written two ways: é as one code point (NFC), and as e with a combining accent (NFD). */
const COMPOSED = 'Jos\u00e9@example.com';
const DECOMPOSED = 'JOSE\u0301@example.com';

describe('core/accounts an email written in another Unicode form (é composed or not)', () => {
  let store: SqliteAccountStore;
  let service: AccountService;
  beforeEach(() => {
    store = new SqliteAccountStore(':memory:');
    service = new AccountService(store, { registration: 'open', scrypt: FAST_SCRYPT });
  });
  afterEach(() => store.close());

  it('is the same account: a second registration is refused, and login finds it either way', async () => {
    const { account } = await service.register(DECOMPOSED, 'correct horse');
    expect(account.email).to.equal('jos\u00e9@example.com');
    const error = await expectGatewayError(service.register(COMPOSED, 'other password'));
    expect(error.code).to.equal('TTS_ERR_CONFLICT');
    expect((await service.login(COMPOSED, 'correct horse')).account.id).to.equal(account.id);
    expect((await service.login(DECOMPOSED, 'correct horse')).account.id).to.equal(account.id);
  });

  it('still logs in an account stored before in the decomposed form', async () => {
    const { account } = await service.register('old@example.com', 'correct horse');
    // As an earlier version stored it: folded to lower case, not composed.
    (store as unknown as { database: { prepare(sql: string): { run(...values: unknown[]): unknown } } }).database
      .prepare('UPDATE accounts SET email = ? WHERE id = ?')
      .run('jose\u0301@example.com', account.id);
    expect((await service.login(COMPOSED, 'correct horse')).account.id).to.equal(account.id);
    expect((await service.login(DECOMPOSED, 'correct horse')).account.id).to.equal(account.id);
  });

  it('counts login failures under one email for both forms: switching forms gets no more guesses', async () => {
    const throttle = new LoginThrottle({ failures: 2, addressFailures: 100, addressRegistrations: 1_000, windowMs: 60_000, counters: new MemoryWindowCounters() });
    await throttle.attempt('login', COMPOSED, '192.0.2.1');
    await throttle.attempt('login', DECOMPOSED, '192.0.2.2');
    const error = await expectGatewayError(throttle.attempt('login', ` ${COMPOSED.toUpperCase()}`, '192.0.2.3'));
    expect(error.code).to.equal('TTS_ERR_RATE_LIMITED');
  });
});
