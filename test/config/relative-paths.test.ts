import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../support/paths';
import { TempDirectory } from './config-test-helpers';

const CLI = join(projectRoot, 'dist', 'server', 'cli.js');

// A config file in /etc/tts-gateway must not put the account database next to it: data paths
// (`sqlite:./…` like storage.path) are the working directory's; only plugin paths are the file's.
describe('config: a relative sqlite: path with the config file in another folder', () => {
  let directory: TempDirectory;
  beforeEach(() => (directory = new TempDirectory()));
  afterEach(() => directory.remove());

  it('is relative to the working directory the process starts in, not to the config file', () => {
    const workingDirectory = join(directory.path, 'work');
    mkdirSync(workingDirectory);
    mkdirSync(join(directory.path, 'etc'));
    const configFile = directory.write(join('etc', 'tts-gateway.config.yaml'), 'database:\n  url: sqlite:./data/gateway.db\n');
    const env = { ...process.env, TTS_GATEWAY_CONFIG: '' };
    const run = spawnSync(process.execPath, [CLI, 'accounts', 'create', '--email', 'ops@example.com', '--config', configFile], { cwd: workingDirectory, env, encoding: 'utf8' });
    expect(run.status, run.stderr).to.equal(0);
    expect(existsSync(join(workingDirectory, 'data', 'gateway.db'))).to.equal(true);
    expect(existsSync(join(directory.path, 'etc', 'data'))).to.equal(false);
  });
});
