import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../../config';
import { composeGateway } from '../../../server/composition-root';
import { describeStartupError } from '../../../server/startup-error';
import { recordingWinstonLogger } from '../../support/recording-winston-logger';
import { CliSandbox } from './cli-test-helpers';

// A folder the gateway's user cannot create, a file that is not SQLite: the operator must learn
// which setting to fix, in one line, not "Error: EACCES ..." or "SqliteError: ..." alone.
describe('server and CLI: a database.url that cannot be opened', () => {
  let sandbox: CliSandbox;
  beforeEach(() => (sandbox = new CliSandbox()));
  afterEach(() => sandbox.remove());

  /** A database path under a plain file: its folder can never be made (as root too, unlike a permission). */
  const unreachable = () => {
    writeFileSync(join(sandbox.directory, 'not-a-folder'), '');
    return join(sandbox.directory, 'not-a-folder', 'gateway.db');
  };

  const useDatabase = (path: string) => writeFileSync(sandbox.configFile, `database:\n  url: "sqlite:${path}"\n`);

  it('CLI: names database.url and the file whose folder cannot be made, in one line, exit 1', async () => {
    const path = unreachable();
    useDatabase(path);
    const run = await sandbox.run(['keys', 'list', '--email', 'ops@example.com']);
    expect(run.status).to.equal(1);
    expect(run.stderr.trim().split('\n')).to.have.length(1);
    expect(run.stderr).to.include('database.url').and.include(path);
    expect(run.stderr).to.not.match(/^tts-gateway: \w*Error: /);
  });

  it('CLI: names database.url for a file that is not a SQLite database', async () => {
    const path = join(sandbox.directory, 'notes.db');
    writeFileSync(path, 'these are not the tables you are looking for, and that is the point of this file\n'.repeat(20));
    useDatabase(path);
    const run = await sandbox.run(['accounts', 'show', '--email', 'ops@example.com']);
    expect(run.status).to.equal(1);
    expect(run.stderr).to.include('database.url').and.include(path).and.include('not a database');
    expect(run.stderr).to.not.match(/^tts-gateway: \w*Error: /);
  });

  it('server: the failed start names database.url, without an error class in front', async () => {
    const path = unreachable();
    const config = await loadConfig({ argv: [], env: {}, cwd: sandbox.directory });
    const failure = await composeGateway(
      { ...config, database: { ...config.database, url: `sqlite:${path}` }, storage: { ...config.storage, path: join(sandbox.directory, 'audio') } },
      { logger: recordingWinstonLogger([], 'error') },
    ).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).to.be.instanceOf(Error);
    const line = describeStartupError(failure);
    expect(line).to.include('database.url').and.include(path);
    expect(line).to.not.match(/^\w*Error: /);
  });
});

