import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { GatewayProcess } from './gateway-process';
import { CLI, writeGatewayConfig } from './spawned-gateway-support';

/** A third-party plugin file whose provider has the given `warmUp` (source text of a method). */
function pluginWithWarmUp(warmUp: string): string {
  return `'use strict';
module.exports = {
  contract: 'tts-gateway.plugin/v1',
  id: 'acme',
  optionsSchema: { type: 'object', properties: { apiKey: { type: 'string' } } },
  create(options) {
    return {
      async models() { return [{ name: 'acme-1', capabilities: { formats: ['wav'], maxInputChars: 100 } }]; },
      async voices() { return []; },
      async synthesize() { throw new Error('not in this test'); },
      ${warmUp},
    };
  },
};
`;
}

describe('server start: a third-party plugin whose warm-up fails (spawned gateway processes)', function () {
  this.timeout(60_000);
  let directory: string;
  let gateway: GatewayProcess | undefined;
  beforeEach(() => (directory = mkdtempSync(join(tmpdir(), 'tts-gateway-plugin-start-'))));
  afterEach(() => {
    gateway?.kill();
    gateway = undefined;
    rmSync(directory, { recursive: true, force: true });
  });

  function start(warmUp: string): GatewayProcess {
    writeFileSync(join(directory, 'acme-plugin.js'), pluginWithWarmUp(warmUp));
    writeGatewayConfig(directory, ['  - plugin: espeak', '  - plugin: ./acme-plugin.js', '    options:', '      apiKey: correct-horse-battery-staple'], { jsonLogs: false });
    return new GatewayProcess(process.execPath, [CLI, 'serve'], { cwd: directory });
  }

  it('a warm-up that throws at once: one line naming the entry, exit 1 (not a stack trace of another provider)', async () => {
    gateway = start(`warmUp() { throw new Error('acme engine missing'); }`);
    expect(await gateway.exitCode()).to.equal(1);
    expect(gateway.stderr).to.match(/^tts-gateway could not start: .*providers\[1\].*acme engine missing.*\n$/);
  });

  it('a warm-up that rejects: one line naming the entry, without the option values that look like secrets', async () => {
    gateway = start(`async warmUp() { throw new Error('login refused for key ' + ${JSON.stringify('correct-horse-battery-staple')}); }`);
    expect(await gateway.exitCode()).to.equal(1);
    expect(gateway.stderr).to.match(/^tts-gateway could not start: .*providers\[1\].*login refused.*\n$/);
    expect(gateway.stderr).to.not.include('correct-horse-battery-staple');
  });
});
