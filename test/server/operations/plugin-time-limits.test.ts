import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../../config';
import type { ProviderEntry } from '../../../config/types';
import { PluginLoadError, type AccountStore } from '../../../core';
import { composeGateway, type ComposeOptions, type Gateway } from '../../../server/composition-root';
import { TOKENS } from '../../../server/container-tokens';
import { fixturesRoot } from '../../support/paths';
import { recordingWinstonLogger } from '../../support/recording-winston-logger';

const FAKE_PLUGIN = join(fixturesRoot, 'plugins', 'fake-plugin.js');
const fakePlugin = createRequire(__filename)(FAKE_PLUGIN) as {
  instances: { context: { instanceId: string }; closed: boolean }[];
  releaseStuckCloses(): void;
  releaseWarmUps(error?: Error): void;
};

/** The gateway's start and close end even when a plugin's create() or close() never settles. */
describe('server: a gateway whose plugin never finishes its create() or close()', function () {
  // Every case ends within a few short limits: a hang shows as a failure here, not as a stuck run.
  this.timeout(5_000);
  let folder: string;
  let logs: Record<string, unknown>[];

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'tts-gateway-plugin-limits-'));
    logs = [];
  });
  afterEach(() => {
    fakePlugin.releaseStuckCloses();
    fakePlugin.releaseWarmUps();
    rmSync(folder, { recursive: true, force: true });
  });

  async function compose(providers: ProviderEntry[], pluginTimeLimits: ComposeOptions['pluginTimeLimits']): Promise<Gateway> {
    const config = await loadConfig({ argv: [], env: {}, cwd: folder });
    const logger = recordingWinstonLogger(logs, 'warn');
    return composeGateway(
      { ...config, storage: { ...config.storage, path: join(folder, 'audio') }, database: { ...config.database, url: 'sqlite::memory:' }, providers },
      { logger, pluginTimeLimits },
    );
  }

  it('fails the composition as for a create() that throws, naming the provider and the limit', async () => {
    const failure = await compose([{ plugin: FAKE_PLUGIN, id: 'stuck', options: { hangCreate: true } }], { createTimeoutMs: 100 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).to.be.instanceOf(PluginLoadError);
    expect((failure as PluginLoadError).code).to.equal('TTS_PLUGIN_CREATE_FAILED');
    expect((failure as Error).message).to.equal('Provider "stuck" (providers[0], plugin fake) failed to start: its create() did not finish within 0.1 s');
  });

  it('closes the other providers and the stores, and warns naming the provider, when a close() never settles', async () => {
    const gateway = await compose(
      [
        { plugin: FAKE_PLUGIN, id: 'stuck', options: { hangClose: true, models: ['stuck-model'] } },
        { plugin: FAKE_PLUGIN, id: 'other', options: { models: ['other-model'] } },
      ],
      { closeTimeoutMs: 100 },
    );
    await gateway.warmedUp;
    const store = gateway.container.resolve<AccountStore>(TOKENS.accountStore);
    const instances = fakePlugin.instances.slice(-2);

    await gateway.close();

    expect(instances.map((instance) => [instance.context.instanceId, instance.closed])).to.deep.equal([
      ['stuck', false],
      ['other', true],
    ]);
    expect(logs.filter((entry) => entry.level === 'warn')).to.deep.equal([
      { level: 'warn', message: 'Provider "stuck" did not close within 0.1 s; going on without it', provider: 'stuck' },
    ]);
    const database = await store.ping().then(
      () => 'open',
      () => 'closed',
    );
    expect(database).to.equal('closed');
  });

  it('closes within the limit when a warm-up never ends: a warning, then every provider and store closed', async () => {
    const gateway = await compose([{ plugin: FAKE_PLUGIN, id: 'warming', options: { holdWarmUp: true, models: ['warming-model'] } }], { closeTimeoutMs: 100 });
    const store = gateway.container.resolve<AccountStore>(TOKENS.accountStore);
    const [instance] = fakePlugin.instances.slice(-1);

    await gateway.close();

    expect(instance.closed).to.equal(true);
    expect(logs.filter((entry) => entry.level === 'warn')).to.deep.equal([
      { level: 'warn', message: "A provider's warm-up did not end within 0.1 s of the stop; closing the providers anyway" },
    ]);
    expect(
      await store.ping().then(
        () => 'open',
        () => 'closed',
      ),
    ).to.equal('closed');
  });
});
