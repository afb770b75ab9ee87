import { expect } from 'chai';
import request from 'supertest';
import { openAccountStore } from '../../core';
import { issueApiKey } from '../../core/accounts/api-key-issuing';
import { CliSandbox } from './cli/cli-test-helpers';
import { buildTestApp, expectErrorEnvelope, type TestApp } from './support/test-app';

/**
 * Key names are printed to the operator's terminal by `tts-gateway keys list`, the listing the
 * README says to check after a leak. A name with escape sequences (or a line break) could erase
 * its own line there, so that a key made with a leaked key hid from that very check.
 */
const HIDING_NAMES = [
  'deploy\u001b[1A\u001b[2K',
  'ci\r\n5da41dfb-d664-4d6f-8740-04239591cf7e  ci  ttsg_9hzkTB…',
  'c1 control \u009b2K',
  'reversed \u202Eyek',
];

describe('server: key names with control characters', () => {
  let test: TestApp;
  afterEach(() => test.close());

  it('refuses them with 400 naming the field, and takes ordinary Unicode names', async () => {
    test = await buildTestApp();
    const { apiKey } = await test.register();
    for (const name of HIDING_NAMES) {
      const answer = await request(test.app).post('/api/v1/auth/keys').set('X-API-Key', apiKey).send({ name }).expect(400);
      const error = expectErrorEnvelope(answer.body, 'TTS_ERR_VALIDATION');
      expect(error.details).to.deep.equal([{ field: 'name', reason: 'control_character' }]);
    }
    for (const name of ['🧑‍💻 laptop', 'Café · prod', 'مفتاح']) {
      await request(test.app).post('/api/v1/auth/keys').set('X-API-Key', apiKey).send({ name }).expect(200);
    }
    const listed = await request(test.app).get('/api/v1/auth/keys').set('X-API-Key', apiKey).expect(200);
    expect(listed.body.data).to.have.length(4);
  });
});

describe('server CLI: key names on the terminal', () => {
  let sandbox: CliSandbox;
  beforeEach(() => (sandbox = new CliSandbox()));
  afterEach(() => sandbox.remove());

  it('refuses such a name at keys create', async () => {
    const run = await sandbox.run(['keys', 'create', '--email', 'ops@example.com', '--name', HIDING_NAMES[0]]);
    expect(run.status).to.equal(1);
    expect(run.stdout).to.not.include('ttsg_');
  });

  it('prints one written before the rule without its control characters, one line per key', async () => {
    expect((await sandbox.run(['keys', 'create', '--email', 'ops@example.com', '--name', 'deploy'])).status).to.equal(0);
    const store = await openAccountStore(sandbox.databaseUrl);
    const account = await store.findAccountByEmail('ops@example.com');
    for (const name of HIDING_NAMES) await store.createApiKey(issueApiKey(account!.id, name, null, Date.now()).record);
    await store.close();
    const run = await sandbox.run(['keys', 'list', '--email', 'ops@example.com']);
    expect(run.status).to.equal(0);
    expect(run.stdout).to.not.match(/[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/);
    expect(run.stdout.trimEnd().split('\n')).to.have.length(1 + HIDING_NAMES.length);
  });
});
