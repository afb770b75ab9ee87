import { join } from 'node:path';
import { expect } from 'chai';
import { loadProviders, PluginLoadError } from '../../../core';
import { eventually } from '../../support/eventually';
import { FakeDeployment, rejection } from './plugin-test-helpers';

/** What the fake fixture plugin's provider exposes to tests besides the contract. */
interface FakeProviderState {
  readonly context: { instanceId: string };
  readonly closed: boolean;
}

interface FakePlugin {
  readonly instances: FakeProviderState[];
  releaseStuckCloses(): void;
}

/** A plugin's create() and close() that never settle must not hold a start or a failed start forever. */
describe('core/plugin loadProviders: time limits of create() and close()', function () {
  // Each case ends within a few short limits: a hang shows as a failure here, not as a stuck run.
  this.timeout(3_000);
  let deployment: FakeDeployment;
  beforeEach(() => (deployment = new FakeDeployment()));
  afterEach(() => {
    fakePlugin().releaseStuckCloses();
    deployment.remove();
  });

  const fakePlugin = (): FakePlugin => require(join(deployment.builtInDirectory, 'fake', 'index.js')) as FakePlugin;
  const closedById = () => fakePlugin().instances.map((instance) => [instance.context.instanceId, instance.closed]);

  it('stops the start like a create() that throws when create() never settles: one line naming the instance, the plugin and the limit; closes what it started', async () => {
    const error = await rejection(
      loadProviders(
        [
          { plugin: 'fake', id: 'first' },
          { plugin: 'fake', id: 'stuck', options: { hangCreate: true } },
        ],
        deployment.options({ createTimeoutMs: 50 }),
      ),
    );
    expect(error).to.be.instanceOf(PluginLoadError);
    expect(error.code).to.equal('TTS_PLUGIN_CREATE_FAILED');
    expect(error.message).to.equal('Provider "stuck" (providers[1], plugin fake) failed to start: its create() did not finish within 0.05 s');
    expect(closedById()).to.deep.equal([['first', true]]);
  });

  it('closes a provider whose create() answers after its time limit, since nothing else will', async () => {
    const error = await rejection(loadProviders([{ plugin: 'fake', id: 'late', options: { createDelayMs: 100 } }], deployment.options({ createTimeoutMs: 20 })));
    expect(error.message).to.include('"late"').and.include('did not finish within 0.02 s');
    await eventually(() => {
      expect(closedById()).to.deep.equal([['late', true]]);
    });
  });

  it('ends a failed start whose clean-up meets a close() that never settles: a warning names that provider, the others are closed', async () => {
    const error = await rejection(
      loadProviders(
        [
          { plugin: 'fake', id: 'stuck', options: { hangClose: true } },
          { plugin: 'fake', id: 'second' },
          { plugin: 'fake', id: 'broken', options: { failCreate: true } },
        ],
        deployment.options({ closeTimeoutMs: 50 }),
      ),
    );
    expect(error.code).to.equal('TTS_PLUGIN_CREATE_FAILED');
    expect(closedById()).to.deep.equal([
      ['stuck', false],
      ['second', true],
    ]);
    const warnings = deployment.records.filter((record) => record.level === 'warn');
    expect(warnings.map((record) => record.message)).to.deep.equal(['Provider "stuck" did not close within 0.05 s; going on without it']);
    expect(warnings[0].meta).to.deep.equal({ provider: 'stuck' });
  });

  it('starts without a provider whose models() never settles and ignores its signal: it is unavailable, to be asked again', async () => {
    const loaded = await loadProviders(
      [
        { plugin: 'fake', id: 'deaf', options: { hangModels: true } },
        { plugin: 'fake', id: 'quick', options: { models: ['quick-model'] } },
      ],
      deployment.options({ modelsTimeoutMs: 50 }),
    );
    expect(loaded.map((provider) => [provider.instanceId, provider.listingError, provider.models.length])).to.deep.equal([
      ['deaf', 'did not finish within 0.05 s', 0],
      ['quick', undefined, 1],
    ]);
  });

  it('leaves a create() and a close() that finish in time as they were', async () => {
    const loaded = await loadProviders([{ plugin: 'fake', id: 'quick' }], deployment.options({ createTimeoutMs: 1_000, closeTimeoutMs: 1_000 }));
    expect(loaded.map((provider) => provider.instanceId)).to.deep.equal(['quick']);
    expect(deployment.records.filter((record) => record.level === 'warn')).to.deep.equal([]);
  });
});
