import { expect } from 'chai';
import { AccountOperator, AccountService, SqliteAccountStore } from '../../../core';
import { expectGatewayError } from '../../support/gateway-error-assertions';

const FAST_SCRYPT = { cost: 1024, blockSize: 8, parallelization: 1 };
const DAY = 86_400_000;
/** 2026-01-01T00:00:00Z */
const NEW_YEAR = Date.UTC(2026, 0, 1);

describe('core/accounts AccountOperator and provisionKey', () => {
  let store: SqliteAccountStore;
  let clock: number;
  let service: AccountService;
  let operator: AccountOperator;

  beforeEach(() => {
    store = new SqliteAccountStore(':memory:');
    clock = NEW_YEAR + 3_600_000;
    service = new AccountService(store, { registration: 'closed', scrypt: FAST_SCRYPT, now: () => clock });
    operator = new AccountOperator(service, store);
  });
  afterEach(() => store.close());

  it('creates an account with a first key even when registration is closed, and refuses a taken email', async () => {
    const { account, apiKey } = await operator.createAccount('Ops@Example.com', 'correct horse');
    expect(account.email).to.equal('ops@example.com');
    expect(apiKey.name).to.equal('default');
    expect((await service.login('ops@example.com', 'correct horse')).account).to.deep.equal(account);
    await expectGatewayError(operator.createAccount('ops@example.com'), 'TTS_ERR_CONFLICT');
  });

  it('issues a key on an existing account only with its own password when one is given', async () => {
    await operator.createAccount('ops@example.com', 'correct horse');
    const error = await expectGatewayError(service.provisionKey('ops@example.com', 'deploy', 'wrong password'), 'TTS_ERR_UNAUTHORIZED');
    expect(error.message).to.equal('The password does not match account ops@example.com; leave out the password to issue a key for it anyway');
    expect(await service.listKeys((await service.findAccount('ops@example.com')).id)).to.have.length(1);
    const issued = await service.provisionKey('ops@example.com', 'deploy', 'correct horse');
    expect(issued).to.include({ created: false });
    const withoutPassword = await service.provisionKey('ops@example.com', 'ci');
    expect(withoutPassword.apiKey.name).to.equal('ci');
  });

  it('sets an account limits one at a time, and clears them back to the default', async () => {
    await operator.createAccount('ops@example.com');
    expect((await operator.limitsOf('ops@example.com')).limits).to.deep.equal({});
    await operator.setLimits('ops@example.com', { requestsPerMinute: 60 });
    const both = await operator.setLimits('ops@example.com', { charactersPerDay: 200_000 });
    expect(both.limits).to.deep.equal({ requestsPerMinute: 60, charactersPerDay: 200_000 });
    const cleared = await operator.setLimits('ops@example.com', { requestsPerMinute: null });
    expect(cleared.limits).to.deep.equal({ charactersPerDay: 200_000 });
  });

  it('refuses limits that are not whole positive numbers, and unknown accounts', async () => {
    await operator.createAccount('ops@example.com');
    await expectGatewayError(operator.setLimits('ops@example.com', { requestsPerMinute: 0 }), 'TTS_ERR_VALIDATION');
    await expectGatewayError(operator.setLimits('ops@example.com', { charactersPerDay: 2.5 }), 'TTS_ERR_VALIDATION');
    await expectGatewayError(operator.setLimits('nobody@example.com', { requestsPerMinute: 5 }), 'TTS_ERR_NOT_FOUND');
  });

  it("gives an account's usage report by UTC day and model, within a period", async () => {
    const ada = await operator.createAccount('ada@example.com');
    const use = async (model: string, characters: number, at: number) => {
      clock = at;
      await service.recordUsage(ada.account.id, ada.apiKey.id, { model, characters, bytes: characters * 10 });
    };
    await use('espeak-ng', 100, NEW_YEAR + 1000);
    await use('tts-1', 7, NEW_YEAR + 2000);
    await use('espeak-ng', 1, NEW_YEAR + DAY);
    clock = NEW_YEAR + DAY + 5000;
    const { report } = await operator.usage('ada@example.com', { from: '2026-01-01', to: '2026-01-01' });
    expect(report.totals).to.include({ requests: 2, characters: 107 });
    expect(report.byModel.map((row) => [row.model, row.requests])).to.deep.equal([
      ['espeak-ng', 1],
      ['tts-1', 1],
    ]);
    const all = await operator.usage('ada@example.com', {});
    expect(all.report.byDay.map((row) => [row.date, row.requests])).to.deep.equal([
      ['2026-01-01', 2],
      ['2026-01-02', 1],
    ]);
    await expectGatewayError(operator.usage('nobody@example.com', {}), 'TTS_ERR_NOT_FOUND');
  });
});
