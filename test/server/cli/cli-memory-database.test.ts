import { writeFileSync } from 'node:fs';
import { expect } from 'chai';
import { API_KEY_LINE, CliSandbox } from './cli-test-helpers';

describe('server CLI (tts-gateway) on an in-memory database', () => {
  let sandbox: CliSandbox;
  beforeEach(() => {
    sandbox = new CliSandbox();
    // The README's own zero-persistence setting: `"sqlite::memory:"`.
    writeFileSync(sandbox.configFile, 'database:\n  url: "sqlite::memory:"\nauth:\n  registration: closed\n');
  });
  afterEach(() => sandbox.remove());

  it('refuses to issue a key that no gateway will ever know (the database lives and dies with this command)', async () => {
    const created = await sandbox.run(['keys', 'create', '--email', 'ops@example.com']);
    expect(created.stdout).to.not.match(API_KEY_LINE);
    expect(created.status).to.equal(1);
    expect(created.stderr).to.include('sqlite::memory:');
  });

  it('says why it cannot see an account, rather than "No such account"', async () => {
    const listed = await sandbox.run(['keys', 'list', '--email', 'ops@example.com']);
    expect(listed.status).to.equal(1);
    expect(listed.stderr).to.include('sqlite::memory:');
  });
});
