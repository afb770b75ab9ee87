import { expect } from 'chai';
import { AccountService, createAccountStore } from '../../../core';
import { API_KEY_LINE, CliSandbox } from './cli-test-helpers';

describe('server CLI (tts-gateway) commands', () => {
  let sandbox: CliSandbox;
  beforeEach(() => (sandbox = new CliSandbox()));
  afterEach(() => sandbox.remove());

  it('prints the help with --help, and alone', async () => {
    for (const args of [['--help'], []]) {
      const run = await sandbox.runBare(args);
      expect(run.status).to.equal(0);
      expect(run.stdout).to.match(/^Usage: tts-gateway <command> \[options\]/);
      for (const command of ['serve', 'keys', 'accounts', 'usage']) expect(run.stdout).to.include(`  ${command} `);
      expect(run.stderr).to.equal('');
    }
    const keysHelp = await sandbox.runBare(['keys', '--help']);
    expect(keysHelp.stdout).to.include('keys create --email <email>');
    expect((await sandbox.runBare(['--version'])).stdout).to.match(/^\d+\.\d+\.\d+\n$/);
  });

  it('answers a missing argument with one line and a hint, never the whole usage', async () => {
    const run = await sandbox.run(['keys', 'create']);
    expect(run.status).to.equal(2);
    expect(run.stderr).to.equal('tts-gateway: keys create needs --email <email>\nRun "tts-gateway keys --help" for usage.\n');
    expect(run.stdout).to.equal('');
    const revoke = await sandbox.run(['keys', 'revoke', '--email', 'a@example.com']);
    expect(revoke.stderr.split('\n')[0]).to.equal('tts-gateway: keys revoke needs --id <key-id>');
    const noCommand = await sandbox.run(['accounts']);
    expect(noCommand.stderr.split('\n')[0]).to.equal('tts-gateway: accounts needs a command: create, show or set-limits');
  });

  it('names an unknown command or option in one line', async () => {
    const unknown = await sandbox.runBare(['launch']);
    expect(unknown.status).to.equal(2);
    expect(unknown.stderr).to.equal('tts-gateway: unknown command "launch"\nRun "tts-gateway --help" for usage.\n');
    const sub = await sandbox.run(['keys', 'rotate']);
    expect(sub.stderr.split('\n')[0]).to.equal('tts-gateway: unknown command "keys rotate" (keys has create, list, revoke)');
    const option = await sandbox.run(['keys', 'list', '--email', 'a@example.com', '--mail', 'x']);
    expect(option.status).to.equal(2);
    expect(option.stderr.split('\n')[0]).to.equal("tts-gateway: keys list: unknown option '--mail'");
    expect(option.stderr.split('\n')).to.have.length(3);
  });

  it('creates an account with a key, lists it, revokes it, then says there are no keys', async () => {
    const created = await sandbox.run(['keys', 'create', '--email', 'Ops@Example.com', '--name', 'deploy']);
    expect(created.status).to.equal(0);
    expect(created.stdout).to.match(/^Created account ops@example\.com\n/);
    expect(created.stdout).to.match(API_KEY_LINE);
    const listed = await sandbox.run(['keys', 'list', '--email', 'ops@example.com']);
    const [line] = listed.stdout.trim().split('\n');
    expect(line).to.match(/^[0-9a-f-]{36} {2}deploy {2}ttsg_.{6}… {2}created \d{4}-\d\d-\d\dT.+Z {2}last used never$/);
    const keyId = line.split(' ')[0];
    const revoked = await sandbox.run(['keys', 'revoke', '--email', 'ops@example.com', '--id', keyId]);
    expect(revoked.stdout).to.equal(`Revoked ${keyId} (a key of ops@example.com)\n`);
    const empty = await sandbox.run(['keys', 'list', '--email', 'ops@example.com']);
    expect(empty.status).to.equal(0);
    expect(empty.stdout).to.equal('No keys for ops@example.com (revoked keys are not listed)\n');
  });

  it('checks --password against an existing account instead of ignoring it', async () => {
    await sandbox.run(['accounts', 'create', '--email', 'ops@example.com', '--password', 'correct horse']);
    const wrong = await sandbox.run(['keys', 'create', '--email', 'ops@example.com', '--password', 'wrong horse']);
    expect(wrong.status).to.equal(1);
    expect(wrong.stderr).to.equal('tts-gateway: The password does not match account ops@example.com; leave out the password to issue a key for it anyway\n');
    expect(wrong.stdout).to.equal('');
    expect((await sandbox.run(['keys', 'list', '--email', 'ops@example.com'])).stdout.trim().split('\n')).to.have.length(1);
    const right = await sandbox.run(['keys', 'create', '--email', 'ops@example.com', '--password-stdin'], 'correct horse\n');
    expect(right.status).to.equal(0);
    expect(right.stdout).to.match(/^Account ops@example\.com\n/);
    const both = await sandbox.run(['keys', 'create', '--email', 'ops@example.com', '--password', 'x', '--password-stdin']);
    expect(both.stderr.split('\n')[0]).to.equal('tts-gateway: keys create: give --password or --password-stdin, not both');
  });

  it('creates accounts once, and says so in one line for a taken email or an unknown one', async () => {
    const created = await sandbox.run(['accounts', 'create', '--email', 'ada@example.com']);
    expect(created.stdout).to.match(/^Created account ada@example\.com \([0-9a-f-]{36}\), without a password\n/);
    expect(created.stdout).to.match(API_KEY_LINE);
    const again = await sandbox.run(['accounts', 'create', '--email', 'ada@example.com']);
    expect(again.status).to.equal(1);
    expect(again.stderr).to.equal('tts-gateway: An account with this email already exists\n');
    const unknown = await sandbox.run(['keys', 'list', '--email', 'nobody@example.com']);
    expect(unknown.status).to.equal(1);
    expect(unknown.stderr).to.equal('tts-gateway: No such account with this email\n');
  });

  it('stores and shows per-account limits, and refuses values that are not limits', async () => {
    await sandbox.run(['accounts', 'create', '--email', 'ada@example.com']);
    expect((await sandbox.run(['accounts', 'show', '--email', 'ada@example.com'])).stdout).to.include('Limits: requests per minute: default; characters per day: default');
    const set = await sandbox.run(['accounts', 'set-limits', '--email', 'ada@example.com', '--requests-per-minute', '60', '--characters-per-day', '200000']);
    expect(set.stdout).to.equal('Limits of ada@example.com: requests per minute: 60; characters per day: 200000\n');
    const back = await sandbox.run(['accounts', 'set-limits', '--email', 'ada@example.com', '--requests-per-minute', 'default']);
    expect(back.stdout).to.equal('Limits of ada@example.com: requests per minute: default; characters per day: 200000\n');
    const bad = await sandbox.run(['accounts', 'set-limits', '--email', 'ada@example.com', '--characters-per-day=-5']);
    expect(bad.status).to.equal(2);
    expect(bad.stderr.split('\n')[0]).to.equal('tts-gateway: --characters-per-day must be a whole number above 0 or "default" (found "-5")');
    const word = await sandbox.run(['accounts', 'set-limits', '--email', 'ada@example.com', '--requests-per-minute', 'lots']);
    expect(word.stderr.split('\n')[0]).to.equal('tts-gateway: --requests-per-minute must be a whole number above 0 or "default" (found "lots")');
    const none = await sandbox.run(['accounts', 'set-limits', '--email', 'ada@example.com']);
    expect(none.stderr.split('\n')[0]).to.equal('tts-gateway: accounts set-limits needs --requests-per-minute or --characters-per-day');
  });

  it("prints an account's usage by day and by model with totals, or says there is none", async () => {
    const created = await sandbox.run(['accounts', 'create', '--email', 'ada@example.com']);
    const apiKey = API_KEY_LINE.exec(created.stdout)?.[1] ?? '';
    const empty = await sandbox.run(['usage', '--email', 'ada@example.com', '--from', '2026-03-01', '--to', '2026-03-02']);
    expect(empty.stdout).to.equal('No usage recorded for ada@example.com from 2026-03-01 to 2026-03-02 (UTC days)\n');
    // What the synthesis routes record after each synthesis, written to the same database.
    const store = createAccountStore(sandbox.databaseUrl);
    let clock = Date.UTC(2026, 2, 1, 12);
    const accounts = new AccountService(store, { registration: 'closed', now: () => clock });
    const { account, keyId } = await accounts.authenticate(apiKey);
    await accounts.recordUsage(account.id, keyId, { model: 'espeak-ng', characters: 120, bytes: 18_000, audioSeconds: 7.5 });
    await accounts.recordUsage(account.id, keyId, { model: 'tts-1', characters: 30, bytes: 4_000, audioSeconds: 2 });
    clock = Date.UTC(2026, 2, 2, 9);
    await accounts.recordUsage(account.id, keyId, { model: 'espeak-ng', characters: 5, bytes: 900, audioSeconds: 0.5 });
    await store.close();

    const run = await sandbox.run(['usage', '--email', 'ada@example.com', '--from', '2026-03-01', '--to', '2026-03-02']);
    expect(run.status).to.equal(0);
    expect(run.stdout).to.equal(
      [
        'Usage of ada@example.com from 2026-03-01 to 2026-03-02 (UTC days)',
        '',
        'By day:',
        'day         requests  characters  audio s  cache hits  errors',
        '2026-03-01  2         150         9.5      0           0',
        '2026-03-02  1         5           0.5      0           0',
        '',
        'By model:',
        'model      requests  characters  audio s  cache hits  errors',
        'espeak-ng  2         125         8        0           0',
        'tts-1      1         30          2        0           0',
        'total      3         155         10       0           0',
        '',
      ].join('\n'),
    );
    const badDay = await sandbox.run(['usage', '--email', 'ada@example.com', '--from', '2026-02-30']);
    expect(badDay.status).to.equal(1);
    expect(badDay.stderr).to.equal('tts-gateway: from must be a date written YYYY-MM-DD\n');
    const noEmail = await sandbox.run(['usage']);
    expect(noEmail.stderr.split('\n')[0]).to.equal('tts-gateway: usage needs --email <email>');
  });

  it('reports a broken configuration in one line', async () => {
    const run = await sandbox.runBare(['keys', 'list', '--email', 'a@example.com', '--config', `${sandbox.directory}/missing.yaml`]);
    expect(run.status).to.equal(1);
    expect(run.stderr.trim().split('\n')).to.have.length(1);
    expect(run.stderr).to.include('missing.yaml');
  });
});
