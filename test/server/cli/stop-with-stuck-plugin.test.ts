import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { fixturesRoot } from '../../support/paths';
import { GatewayProcess } from './gateway-process';
import { SHORT_PLUGIN_LIMIT_MS } from './gateway-with-short-plugin-limits';
import { writeGatewayConfig } from './spawned-gateway-support';

/** The built entry with short plugin time limits. */
const ENTRY = join(__dirname, 'gateway-with-short-plugin-limits.js');
const FAKE_PLUGIN = join(fixturesRoot, 'plugins', 'fake-plugin.js');

/** Resolves with the exit status, or 'still running' once `limitMs` has passed. */
function exitWithin(gateway: GatewayProcess, limitMs: number): Promise<number | null | 'still running'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'still running'>((resolve) => (timer = setTimeout(() => resolve('still running'), limitMs)));
  return Promise.race([gateway.exitCode(), late]).finally(() => clearTimeout(timer));
}

describe('server stop: a plugin whose close() never settles (spawned gateway process)', function () {
  this.timeout(30_000);
  let directory: string;
  let gateway: GatewayProcess | undefined;
  beforeEach(() => (directory = mkdtempSync(join(tmpdir(), 'tts-gateway-stuck-close-'))));
  afterEach(() => {
    gateway?.kill();
    gateway = undefined;
    rmSync(directory, { recursive: true, force: true });
  });

  it('on SIGTERM still exits 0 after the close time limit, with a warning naming the provider', async () => {
    writeGatewayConfig(directory, [`  - plugin: ${JSON.stringify(FAKE_PLUGIN)}`, '    id: stuck', '    options:', '      hangClose: true']);
    gateway = new GatewayProcess(process.execPath, [ENTRY], { cwd: directory });
    await gateway.port();
    gateway.child.kill('SIGTERM');
    // Without a limit the process would wait for the close forever, until an orchestrator's SIGKILL.
    expect(await exitWithin(gateway, SHORT_PLUGIN_LIMIT_MS + 5_000)).to.equal(0);
    expect(gateway.stdout).to.match(/"level":"warn","message":"Provider \\"stuck\\" did not close within 0.3 s; going on without it"/);
    expect(gateway.stdout).to.include('"message":"stopped"');
    expect(gateway.stderr).to.equal('');
  });
});
