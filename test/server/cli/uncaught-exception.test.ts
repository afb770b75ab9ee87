import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { GatewayProcess } from './gateway-process';
import { CLI, registeredKey, writeGatewayConfig } from './spawned-gateway-support';

const SECRET = 'sk-live-0123456789abcdefghij';

/** A third-party plugin with a bug: its synthesis throws where nothing can catch it (a timer's callback). */
const BUGGY_PLUGIN = `'use strict';
module.exports = {
  contract: 'tts-gateway.plugin/v1',
  id: 'acme',
  optionsSchema: { type: 'object' },
  create() {
    return {
      async models() { return [{ name: 'acme-1', capabilities: { formats: ['wav'], maxInputChars: 100 } }]; },
      async voices() { return [{ voiceId: 'amy', voiceName: 'Amy', language: 'en-US', gender: 'Unknown', description: '' }]; },
      synthesize() {
        return new Promise(() => setImmediate(() => { throw new Error('acme socket lost while using ${SECRET}'); }));
      },
    };
  },
};
`;

describe('server: an exception nothing caught (spawned gateway)', function () {
  this.timeout(60_000);
  let directory: string;
  let gateway: GatewayProcess | undefined;
  beforeEach(() => (directory = mkdtempSync(join(tmpdir(), 'tts-gateway-fatal-'))));
  afterEach(() => {
    gateway?.kill();
    gateway = undefined;
    rmSync(directory, { recursive: true, force: true });
  });

  it('is one JSON log line (name, scrubbed message, one frame), never a stack trace on stderr, and the process exits 1', async () => {
    writeFileSync(join(directory, 'acme-plugin.js'), BUGGY_PLUGIN);
    writeGatewayConfig(directory, ['  - plugin: ./acme-plugin.js']);
    gateway = new GatewayProcess(process.execPath, [CLI, 'serve'], { cwd: directory });
    const port = await gateway.port();
    const apiKey = await registeredKey(port);
    void fetch(`http://127.0.0.1:${port}/api/v1/common/tts-sync`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': apiKey },
      body: JSON.stringify({ model: 'acme-1', voice: 'amy', text: 'Hello' }),
    }).catch(() => undefined);

    expect(await gateway.exitCode()).to.equal(1);
    expect(gateway.stderr, 'stderr').to.not.match(/^\s+at /m);
    expect(gateway.stderr + gateway.stdout).to.not.include(SECRET);
    const line = gateway.stdout.split('\n').find((candidate) => candidate.includes('"message":"uncaught exception'));
    expect(line, gateway.stdout.slice(-2000)).to.not.equal(undefined);
    const entry = JSON.parse(line!) as Record<string, unknown>;
    expect(entry).to.include({ level: 'error', errorName: 'Error' });
    expect(entry.errorMessage).to.match(/^acme socket lost while using \[redacted\]/);
    expect(entry.thrownAt).to.match(/acme-plugin\.js:\d+$/);
    expect(JSON.stringify(entry)).to.not.match(/\n\s+at /);
  });
});
