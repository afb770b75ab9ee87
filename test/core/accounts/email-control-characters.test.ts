import { expect } from 'chai';
import { AccountService, openAccountStore, type AccountStore } from '../../../core';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { sharedPostgres } from '../../support/servers/shared-servers';

const FAST_SCRYPT = { cost: 1024, blockSize: 8, parallelization: 1 };

/** Each store the gateway runs on: the answers must not depend on which one it is. */
const STORES: [name: string, open: () => Promise<AccountStore>][] = [
  ['SQLite', async () => openAccountStore('sqlite::memory:')],
  ['PostgreSQL', async () => openAccountStore(await (await sharedPostgres()).createDatabase('email_controls'))],
];

for (const [name, open] of STORES) {
  describe(`core/accounts an email holding control characters or a lone surrogate (${name})`, () => {
    let store: AccountStore;
    let service: AccountService;
    beforeEach(async () => {
      store = await open();
      service = new AccountService(store, { registration: 'open', scrypt: FAST_SCRYPT });
    });
    afterEach(() => store.close());

    for (const [what, email] of [
      ['a NUL', 'ada\u0000@example.com'],
      ['an escape sequence', 'ada\u001b[2K@example.com'],
      ['a direction override', 'ada\u202e@example.com'],
    ]) {
      it(`refuses ${what} at registration as a bad email (400), never a 500`, async () => {
        const error = await expectGatewayError(service.register(email, 'correct horse'));
        expect(error.code).to.equal('TTS_ERR_VALIDATION');
        expect(error.details).to.deep.equal([{ field: 'email', reason: 'format' }]);
      });
    }

    it('refuses a lone surrogate at registration (400 invalid_unicode): SQLite kept its bytes, PostgreSQL a U+FFFD', async () => {
      const error = await expectGatewayError(service.register('ada\ud800@example.com', 'correct horse'));
      expect(error.code).to.equal('TTS_ERR_VALIDATION');
      expect(error.details).to.deep.equal([{ field: 'email', reason: 'invalid_unicode' }]);
    });

    it('does not log a lone surrogate in the email into the account whose email holds U+FFFD there', async () => {
      await service.register('ada\ufffd@example.com', 'correct horse');
      const error = await expectGatewayError(service.login('ada\udbff@example.com', 'correct horse'));
      expect(error.code).to.equal('TTS_ERR_UNAUTHORIZED');
    });

    it('answers a login with a NUL in the email as an unknown email (401), never a 500', async () => {
      await service.register('ada@example.com', 'correct horse');
      const error = await expectGatewayError(service.login('ada\u0000@example.com', 'correct horse'));
      expect(error.code).to.equal('TTS_ERR_UNAUTHORIZED');
    });
  });
}
