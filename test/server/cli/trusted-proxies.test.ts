import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { GatewayProcess } from './gateway-process';
import { CLI } from './spawned-gateway-support';

/** The login throttle's per-address limit these gateways run with. */
const ADDRESS_FAILURES = 3;

/**
 * One proxy in front of the gateway (nginx's `$proxy_add_x_forwarded_for`): it appends the
 * address it saw to what the client sent, so the client writes the left of the header.
 */
const behindOneProxy = (forgedByClient: string, seenByProxy: string) => `${forgedByClient}, ${seenByProxy}`;

describe('server.trustProxy: which X-Forwarded-For entry is the client (spawned gateways)', function () {
  this.timeout(60_000);
  let directory: string;
  let gateway: GatewayProcess | undefined;
  beforeEach(() => (directory = mkdtempSync(join(tmpdir(), 'tts-gateway-proxies-'))));
  afterEach(() => {
    gateway?.kill();
    gateway = undefined;
    rmSync(directory, { recursive: true, force: true });
  });

  async function start(trustProxy: string): Promise<number> {
    writeFileSync(
      join(directory, 'tts-gateway.config.yaml'),
      [
        'server:',
        '  host: 127.0.0.1',
        '  port: 0',
        `  trustProxy: ${trustProxy}`,
        'database:',
        '  url: "sqlite::memory:"',
        'logging:',
        '  format: json',
        'auth:',
        '  throttle:',
        `    addressFailures: ${ADDRESS_FAILURES}`,
        '',
      ].join('\n'),
    );
    gateway = new GatewayProcess(process.execPath, [CLI, 'serve'], { cwd: directory });
    return gateway.port();
  }

  /** Failed logins, each under another email and another address the client made up. */
  async function guesses(port: number, count: number): Promise<number[]> {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < count; attempt += 1) {
      const answer = await fetch(`http://127.0.0.1:${port}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': behindOneProxy(`10.9.8.${attempt}`, '203.0.113.7') },
        body: JSON.stringify({ email: `guess${attempt}@example.com`, password: 'not the password' }),
      });
      statuses.push(answer.status);
    }
    return statuses;
  }

  it('with the number of proxies in front (1), counts a client that forges X-Forwarded-For under the address its proxy saw, and warns of nothing', async () => {
    const port = await start('1');
    expect(await guesses(port, ADDRESS_FAILURES + 2)).to.deep.equal([401, 401, 401, 429, 429]);
    expect(gateway!.stdout).to.not.include('trustProxy');
  });

  it('with true (every hop believed), warns at start that a client can choose its address, which the forged header shows', async () => {
    const port = await start('true');
    await gateway!.waitFor(/server\.trustProxy is true: a client can choose the address its login attempts are counted under/);
    expect(await guesses(port, ADDRESS_FAILURES + 2)).to.deep.equal([401, 401, 401, 401, 401]);
  });
});
