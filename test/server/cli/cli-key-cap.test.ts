import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { CliSandbox } from './cli-test-helpers';

describe('server CLI (tts-gateway) keys create at auth.maxKeysPerAccount', () => {
  let sandbox: CliSandbox;
  beforeEach(() => {
    sandbox = new CliSandbox();
    writeFileSync(sandbox.configFile, `database:\n  url: "${sandbox.databaseUrl}"\nauth:\n  registration: closed\n  maxKeysPerAccount: 2\n`);
  });
  afterEach(() => sandbox.remove());

  it("refuses a key past the configured cap in one line, and issues one again after a revocation", async () => {
    expect((await sandbox.run(['keys', 'create', '--email', 'ops@example.com', '--name', 'one'])).status).to.equal(0);
    expect((await sandbox.run(['keys', 'create', '--email', 'ops@example.com', '--name', 'two'])).status).to.equal(0);
    const refused = await sandbox.run(['keys', 'create', '--email', 'ops@example.com', '--name', 'three']);
    expect(refused.status).to.equal(1);
    expect(refused.stderr).to.include('2 live API keys').and.include('the most it may have is 2').and.include('revoke one');
    expect(refused.stdout).to.equal('');
    const listed = await sandbox.run(['keys', 'list', '--email', 'ops@example.com']);
    expect(listed.stdout.trim().split('\n')).to.have.length(2);
    const keyId = listed.stdout.split(' ')[0];
    expect((await sandbox.run(['keys', 'revoke', '--email', 'ops@example.com', '--id', keyId])).status).to.equal(0);
    expect((await sandbox.run(['keys', 'create', '--email', 'ops@example.com', '--name', 'three'])).status).to.equal(0);
  });
});
