import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { loadConfig } from '../../../config';
import { composeGateway, type Gateway } from '../../../server/composition-root';
import { createLogger } from '../../../server/logger';
import { fixturesRoot } from '../../support/paths';

const FAKE_PLUGIN = join(fixturesRoot, 'plugins', 'fake-plugin.js');
const fakePlugin = createRequire(__filename)(FAKE_PLUGIN) as { releaseWarmUps(error?: Error): void };

/** The composition hands the gateway over while provider warm-ups still run; readiness waits for them. */
describe('server: a gateway composed while its providers warm up', () => {
  let folder: string;
  let gateway: Gateway | undefined;

  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'tts-gateway-warm-up-'))));
  afterEach(async () => {
    fakePlugin.releaseWarmUps();
    await gateway?.close();
    gateway = undefined;
    rmSync(folder, { recursive: true, force: true });
  });

  async function compose(): Promise<Gateway> {
    const config = await loadConfig({ argv: [], env: {}, cwd: folder });
    return composeGateway(
      {
        ...config,
        storage: { ...config.storage, path: join(folder, 'audio') },
        database: { ...config.database, url: 'sqlite::memory:' },
        providers: [{ plugin: FAKE_PLUGIN, id: 'slow', options: { holdWarmUp: true } }],
      },
      { logger: createLogger({ level: 'error', format: 'json' }) },
    );
  }

  it('answers before the warm-up is over, not ready until it is, then ready', async () => {
    gateway = await compose();
    await request(gateway.app).get('/health/live').expect(200);
    const warming = await request(gateway.app).get('/health/ready').expect(503);
    expect(warming.body.checks.startup).to.deep.equal({ status: 'failed', error: 'warming up' });
    fakePlugin.releaseWarmUps();
    await gateway.warmedUp;
    const ready = await request(gateway.app).get('/health/ready').expect(200);
    expect(ready.body.checks.startup).to.deep.equal({ status: 'ok' });
  });

  it('rejects `warmedUp` with the warm-up failure, for the caller to fail the start', async () => {
    gateway = await compose();
    fakePlugin.releaseWarmUps(new Error('engine missing'));
    const failure = await gateway.warmedUp.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((failure as Error).message).to.equal('Provider "slow" (providers[0], plugin fake) failed to start: its warm-up failed: engine missing');
  });
});
