import { expect } from 'chai';
import { join, relative } from 'node:path';
import type { ProviderEntry } from '../../../config';
import { loadProviders, PluginLoadError } from '../../../core';
import { configFixtures, FakeDeployment, rejection } from './plugin-test-helpers';

/** What the fake fixture plugin's provider exposes to tests besides the contract. */
interface FakeProviderState {
  readonly options: Record<string, unknown>;
  readonly context: { instanceId: string };
  readonly closed: boolean;
}

describe('core/plugin loadProviders: resolution', () => {
  let deployment: FakeDeployment;
  beforeEach(() => (deployment = new FakeDeployment()));
  afterEach(() => deployment.remove());

  it('loads a built-in plugin from <builtInDirectory>/<name>/index.js', async () => {
    const [loaded] = await loadProviders([{ plugin: 'fake' }], deployment.options());
    expect(loaded).to.include({ instanceId: 'fake', pluginId: 'fake', configPath: 'providers[0]' });
    expect(loaded.models.map((model) => model.name)).to.deep.equal(['fake-fast', 'fake-hd']);
    expect([...loaded.modelMap]).to.deep.equal([
      ['fake-fast', 'fake-fast'],
      ['fake-hd', 'fake-hd'],
    ]);
    const state = loaded.provider as unknown as FakeProviderState;
    expect(state.context.instanceId).to.equal('fake');
    expect(deployment.records.find((record) => record.message === 'fake provider created')?.meta).to.deep.equal({ provider: 'fake' });
  });

  it('accepts a built-in folder given relative to the working directory', async () => {
    const [loaded] = await loadProviders([{ plugin: 'fake' }], deployment.options({ builtInDirectory: relative(process.cwd(), deployment.builtInDirectory) }));
    expect(loaded.pluginId).to.equal('fake');
  });

  it('loads a plugin from a path relative to the config file', async () => {
    const [loaded] = await loadProviders([{ plugin: '../plugins/fake-plugin.js', id: 'local' }], deployment.options({ configDirectory: configFixtures }));
    expect(loaded).to.include({ instanceId: 'local', pluginId: 'fake' });
  });

  it('loads an installed npm package (following its package.json main) and fills option defaults', async () => {
    const [loaded] = await loadProviders([{ plugin: 'tts-gateway-plugin-fake', options: { region: 'eu' } }], deployment.options());
    expect(loaded.pluginId).to.equal('packaged-fake');
    expect(loaded.models.map((model) => model.name)).to.deep.equal(['packaged-eu']);
    expect((loaded.provider as unknown as FakeProviderState).options).to.deep.equal({ region: 'eu', speed: 1 });
  });

  it('finds tts-gateway-plugin-<name> for a short name that is not built in', async () => {
    const [loaded] = await loadProviders([{ plugin: 'fake', options: { region: 'us' } }], deployment.options({ builtInDirectory: deployment.root }));
    expect(loaded.pluginId).to.equal('packaged-fake');
  });

  it('loads a transpiled ES module default export', async () => {
    const [loaded] = await loadProviders([{ plugin: '../plugins/esm-default.js' }], deployment.options({ configDirectory: configFixtures }));
    expect(loaded.instanceId).to.equal('esm-default');
  });

  it('loads a native ES module plugin', async () => {
    const [loaded] = await loadProviders([{ plugin: '../plugins/esm-plugin.mjs' }], deployment.options({ configDirectory: configFixtures }));
    expect(loaded.instanceId).to.equal('native-esm');
    expect(loaded.models.map((model) => model.name)).to.deep.equal(['esm-x']);
  });

  it('names the package and the install command when a plugin is not installed', async () => {
    const error = await rejection(loadProviders([{ plugin: 'fake' }, { plugin: '@acme/tts-gateway-plugin-missing' }], deployment.options()));
    expect(error).to.be.instanceOf(PluginLoadError);
    expect(error.code).to.equal('TTS_PLUGIN_NOT_INSTALLED');
    expect(error.message).to.include('"@acme/tts-gateway-plugin-missing" (providers[1])').and.include('npm install @acme/tts-gateway-plugin-missing');
  });

  it('names the resolved path when a plugin file does not exist', async () => {
    const error = await rejection(loadProviders([{ plugin: './plugins/nothing.js' }], deployment.options()));
    expect(error.code).to.equal('TTS_PLUGIN_NOT_INSTALLED');
    expect(error.message).to.include(`${deployment.root}/plugins/nothing.js`);
  });
});

describe('core/plugin loadProviders: checks', () => {
  let deployment: FakeDeployment;
  beforeEach(() => (deployment = new FakeDeployment()));
  afterEach(() => deployment.remove());
  const fromFixtures = (entries: ProviderEntry[]) => loadProviders(entries, deployment.options({ configDirectory: configFixtures }));

  it('rejects a module that is not a plugin', async () => {
    const error = await rejection(fromFixtures([{ plugin: '../plugins/not-a-plugin.js' }]));
    expect(error.code).to.equal('TTS_PLUGIN_BAD_SHAPE');
    expect(error.message).to.include('no "contract" field').and.include('tts-gateway.plugin/v1');
  });

  it('lists what a plugin of the right contract is missing', async () => {
    const error = await rejection(fromFixtures([{ plugin: '../plugins/bad-shape.js' }]));
    expect(error.code).to.equal('TTS_PLUGIN_BAD_SHAPE');
    expect(error.message).to.include('"optionsSchema" must be a JSON Schema object').and.include('"create" must be a function');
  });

  it('says which contract version is supported and which was found', async () => {
    const error = await rejection(fromFixtures([{ plugin: '../plugins/wrong-contract.js' }]));
    expect(error.code).to.equal('TTS_PLUGIN_CONTRACT_MISMATCH');
    expect(error.message).to.include('"tts-gateway.plugin/v2"').and.include('supports "tts-gateway.plugin/v1"');
  });

  it('names the instance and the option path when options fail the schema', async () => {
    const error = await rejection(
      loadProviders([{ plugin: 'tts-gateway-plugin-fake', id: 'acme-eu', options: { region: 'mars', speed: 'fast' } }], deployment.options()),
    );
    expect(error.code).to.equal('TTS_PLUGIN_INVALID_OPTIONS');
    expect(error.message).to.include('"acme-eu" (providers[0])');
    expect(error.message).to.include('providers[0].options.region: must be one of: eu, us');
    expect(error.message).to.include('providers[0].options.speed: must be number');
    expect(error.message).to.not.include('mars');
  });

  it('reports a missing required option', async () => {
    const error = await rejection(loadProviders([{ plugin: 'tts-gateway-plugin-fake' }], deployment.options()));
    expect(error.message).to.include('providers[0].options: missing required key "region"');
  });

  it('stops the start with the plugin name when its module throws while loading', async () => {
    const error = await rejection(fromFixtures([{ plugin: '../plugins/throws-on-load.js' }]));
    expect(error.code).to.equal('TTS_PLUGIN_LOAD_FAILED');
    expect(error.message).to.include('../plugins/throws-on-load.js').and.include('failed to initialise');
  });

  it('stops the start with the instance id when create() throws, without the key, and closes what it started', async () => {
    const error = await rejection(
      loadProviders(
        [
          { plugin: 'fake', id: 'first' },
          { plugin: 'fake', id: 'broken', options: { failCreate: true, apiKey: 'sk-very-secret-value-1234567890' } },
        ],
        deployment.options(),
      ),
    );
    expect(error.code).to.equal('TTS_PLUGIN_CREATE_FAILED');
    expect(error.message).to.include('"broken" (providers[1], plugin fake) failed to start');
    expect(error.message).to.not.include('sk-very-secret-value');
    const { instances } = require(join(deployment.builtInDirectory, 'fake', 'index.js')) as { instances: FakeProviderState[] };
    expect(instances.map((instance) => [instance.context.instanceId, instance.closed])).to.deep.equal([['first', true]]);
  });

  it('keeps the other providers when one cannot list its models at start', async () => {
    const loaded = await loadProviders(
      [
        { plugin: 'fake', id: 'down', options: { failModels: true } },
        { plugin: 'fake', id: 'up', options: { models: ['up-model'] } },
      ],
      deployment.options(),
    );
    expect(loaded.map((provider) => [provider.instanceId, provider.models.length])).to.deep.equal([
      ['down', 0],
      ['up', 1],
    ]);
    const logged = deployment.records.find((record) => record.level === 'error');
    expect(logged?.message).to.include('"down"');
    expect(logged?.meta?.reason).to.include('fake model listing is down');
    expect(loaded[0].listingError).to.equal(logged?.meta?.reason);
    expect(loaded[1]).to.not.have.property('listingError');
  });
});

describe('core/plugin loadProviders: instances and model names', () => {
  let deployment: FakeDeployment;
  beforeEach(() => (deployment = new FakeDeployment()));
  afterEach(() => deployment.remove());

  it('runs two instances of one plugin under different ids, each with its own options', async () => {
    const loaded = await loadProviders(
      [
        { plugin: 'fake', id: 'fake-a', options: { models: ['a-model'] } },
        { plugin: 'fake', id: 'fake-b', options: { models: ['b-model'] } },
      ],
      deployment.options(),
    );
    expect(loaded.map((provider) => provider.instanceId)).to.deep.equal(['fake-a', 'fake-b']);
    expect(loaded.map((provider) => provider.models.map((model) => model.name))).to.deep.equal([['a-model'], ['b-model']]);
  });

  it('stops the start on a duplicate instance id', async () => {
    const error = await rejection(loadProviders([{ plugin: 'fake' }, { plugin: '../plugins/fake-plugin.js' }], deployment.options({ configDirectory: configFixtures })));
    expect(error.code).to.equal('TTS_PLUGIN_DUPLICATE_ID');
    expect(error.message).to.include('"fake" is used by both providers[0] and providers[1]');
  });

  it('stops the start when two providers offer one model name, naming both and the fix', async () => {
    const error = await rejection(
      loadProviders(
        [
          { plugin: 'fake', id: 'fake-a' },
          { plugin: 'fake', id: 'fake-b', options: { models: ['fake-hd', 'other'] } },
        ],
        deployment.options(),
      ),
    );
    expect(error.code).to.equal('TTS_PLUGIN_MODEL_CLASH');
    expect(error.message).to.include('Model "fake-hd"').and.include('"fake-a" (providers[0])').and.include('"fake-b" (providers[1])');
    expect(error.message).to.include('models:').and.include('rename:');
  });

  it('settles a clash with rename:, keeping the provider name in the model map', async () => {
    const loaded = await loadProviders(
      [
        { plugin: 'fake', id: 'fake-a' },
        { plugin: 'fake', id: 'fake-b', rename: { 'fake-hd': 'fake-hd-b', 'fake-fast': 'fake-fast-b' } },
      ],
      deployment.options(),
    );
    expect(loaded[1].models.map((model) => model.name)).to.deep.equal(['fake-fast-b', 'fake-hd-b']);
    expect(loaded[1].modelMap.get('fake-hd-b')).to.equal('fake-hd');
    expect(loaded[1].models[0].capabilities.maxInputChars).to.equal(1000);
  });

  it('settles a clash with a models: filter, and warns about a filter naming an unknown model', async () => {
    const loaded = await loadProviders(
      [
        { plugin: 'fake', id: 'fake-a', models: ['fake-fast'] },
        { plugin: 'fake', id: 'fake-b', models: ['fake-hd', 'fake-typo'] },
      ],
      deployment.options(),
    );
    expect(loaded.map((provider) => [...provider.modelMap.keys()])).to.deep.equal([['fake-fast'], ['fake-hd']]);
    expect(deployment.records.some((record) => record.level === 'warn' && record.message.includes('"fake-typo"'))).to.equal(true);
  });

  it('leaves out a model whose name is not URL-path safe, unless renamed', async () => {
    const [plain] = await loadProviders([{ plugin: 'fake', options: { models: ['ok', 'has/slash'] } }], deployment.options());
    expect([...plain.modelMap.keys()]).to.deep.equal(['ok']);
    const [renamed] = await loadProviders([{ plugin: 'fake', options: { models: ['has/slash'] }, rename: { 'has/slash': 'has-slash' } }], deployment.options());
    expect([...renamed.modelMap]).to.deep.equal([['has-slash', 'has/slash']]);
  });
});
