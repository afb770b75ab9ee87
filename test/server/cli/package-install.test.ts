import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { projectRoot } from '../../support/paths';
import { GatewayProcess } from './gateway-process';

const run = promisify(execFile);
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];

const versionOf = (packageFolder: string): string => (JSON.parse(readFileSync(join(packageFolder, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * better-sqlite3 compiles its native addon on install when no prebuilt binary can be fetched,
 * which takes minutes here. The project's own build of the very same version is that binary:
 * copy it; only another version is compiled.
 */
async function provideSqliteBinary(installedModules: string): Promise<void> {
  const installed = join(installedModules, 'better-sqlite3');
  const ours = join(projectRoot, 'node_modules', 'better-sqlite3');
  const binary = join('build', 'Release', 'better_sqlite3.node');
  if (versionOf(installed) === versionOf(ours) && existsSync(join(ours, binary))) {
    mkdirSync(join(installed, 'build', 'Release'), { recursive: true });
    copyFileSync(join(ours, binary), join(installed, binary));
    return;
  }
  await run('npm', ['rebuild', 'better-sqlite3', ...NPM_FLAGS], { cwd: join(installedModules, '..'), timeout: 600_000 });
}

describe('server: the packed package installs and runs (npm pack, npm install <tarball>)', function () {
  this.timeout(300_000);
  let directory: string;
  let gateway: GatewayProcess | undefined;
  let bin: string;

  before(async () => {
    directory = mkdtempSync(join(tmpdir(), 'tts-gateway-pack-'));
    // dist/ is already built (the tests run from it), so packing needs no prepare step.
    await run('npm', ['pack', '--ignore-scripts', '--pack-destination', directory, ...NPM_FLAGS], { cwd: projectRoot, timeout: 120_000 });
    const tarball = readdirSync(directory).find((name) => name.endsWith('.tgz'));
    if (!tarball) throw new Error('npm pack made no tarball');
    const consumer = join(directory, 'consumer');
    mkdirSync(consumer);
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
    await run('npm', ['install', join(directory, tarball), '--ignore-scripts', ...NPM_FLAGS], { cwd: consumer, timeout: 240_000 });
    await provideSqliteBinary(join(consumer, 'node_modules'));
    bin = join(consumer, 'node_modules', '.bin', 'tts-gateway');
  });
  after(() => {
    gateway?.kill();
    rmSync(directory, { recursive: true, force: true });
  });

  it('ships the compiled code, the example config and the docs, not the tests', () => {
    const installed = join(directory, 'consumer', 'node_modules', 'tts-gateway');
    for (const path of ['dist/server/cli.js', 'dist/core/index.js', 'dist/plugins/espeak/index.js', 'config/tts-gateway.config.example.yaml', 'README.md']) {
      expect(existsSync(join(installed, path)), path).to.equal(true);
    }
    expect(existsSync(join(installed, 'dist', 'test'))).to.equal(false);
    expect(readFileSync(join(installed, 'dist', 'server', 'cli.js'), 'utf8').startsWith('#!/usr/bin/env node\n')).to.equal(true);
  });

  it('runs `tts-gateway --help` from the installed bin', async () => {
    const { stdout } = await run(bin, ['--help'], { timeout: 30_000 });
    expect(stdout).to.match(/^Usage: tts-gateway <command> \[options\]/);
  });

  it('serves with zero configuration, answers /health/live, and stops on SIGTERM', async () => {
    const workingDirectory = join(directory, 'serve');
    mkdirSync(workingDirectory);
    gateway = new GatewayProcess(bin, ['serve'], { cwd: workingDirectory, env: { PORT: '0' } });
    const port = await gateway.port();
    const live = await fetch(`http://127.0.0.1:${port}/health/live`);
    expect(live.status).to.equal(200);
    expect(await live.json()).to.deep.equal({ status: 'ok' });
    gateway.child.kill('SIGTERM');
    expect(await gateway.exitCode()).to.equal(0);
    expect(existsSync(join(workingDirectory, 'data', 'gateway.db'))).to.equal(true);
  });
});
