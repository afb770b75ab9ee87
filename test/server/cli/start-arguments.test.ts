import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../../support/paths';
import { GatewayProcess } from './gateway-process';

/** `npm start` runs this file with the arguments after `--`. */
const MAIN = join(projectRoot, 'dist', 'server', 'main.js');

// `npm start -- --conifg prod.yaml` must not start on whatever the search finds (here: a file
// with open registration on another port), as `tts-gateway serve --conifg` does not either.
describe('server start (npm start): arguments it does not know', function () {
  this.timeout(30_000);
  let directory: string;
  let gateway: GatewayProcess | undefined;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'tts-gateway-arguments-'));
    writeFileSync(join(directory, 'tts-gateway.config.yaml'), 'server:\n  host: 127.0.0.1\n  port: 0\ndatabase:\n  url: "sqlite::memory:"\n');
  });
  afterEach(() => {
    gateway?.kill();
    gateway = undefined;
    rmSync(directory, { recursive: true, force: true });
  });

  /** The exit status, or 'listening' when it started anyway. */
  const outcome = (process: GatewayProcess): Promise<number | null | 'listening'> =>
    Promise.race([process.exitCode(), process.port().then(() => 'listening' as const, () => new Promise<never>(() => undefined))]);

  for (const args of [['--conifg', 'prod.yaml'], ['prod.yaml'], ['--config', 'tts-gateway.config.yaml', '--port', '9000']]) {
    it(`refuses ${args.join(' ')} in one line, exit 1, without starting`, async () => {
      gateway = new GatewayProcess(process.execPath, [MAIN, ...args], { cwd: directory });
      expect(await outcome(gateway)).to.equal(1);
      expect(gateway.stderr).to.match(/^tts-gateway could not start: .*--config <file>.*\n$/);
      expect(gateway.stdout).to.not.include('listening');
    });
  }

  it('still starts with --config <file> and --config=<file>', async () => {
    for (const args of [['--config', 'tts-gateway.config.yaml'], ['--config=tts-gateway.config.yaml']]) {
      gateway = new GatewayProcess(process.execPath, [MAIN, ...args], { cwd: directory });
      expect(await outcome(gateway)).to.equal('listening');
      gateway.kill();
    }
  });
});
