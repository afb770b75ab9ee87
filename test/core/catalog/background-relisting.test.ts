import { expect } from 'chai';
import { BackgroundRelisting, Catalog, GatewayError, type LoadedProvider, type ModelInfo, type TtsProvider } from '../../../core';
import { recordingLogger, type LogRecord } from '../plugin/plugin-test-helpers';

const capabilities = { formats: ['mp3'] as const, maxInputChars: 100 };
const model = (name: string): ModelInfo => ({ name, capabilities });
const provider: TtsProvider = {
  models: async () => [],
  voices: async () => [],
  synthesize: async () => {
    throw new Error('not used');
  },
};

/** Waits for a condition by polling, a bounded number of times. */
async function eventually(condition: () => boolean, tries = 200): Promise<void> {
  for (let attempt = 0; attempt < tries && !condition(); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).to.equal(true);
}

describe('core/catalog BackgroundRelisting', () => {
  let records: LogRecord[];
  let relisting: BackgroundRelisting | undefined;
  beforeEach(() => {
    records = [];
  });
  afterEach(() => relisting?.stop());

  const serving = (instanceId: string, names: string[]): LoadedProvider => ({
    instanceId,
    pluginId: 'fake',
    configPath: `providers[${instanceId}]`,
    provider,
    models: names.map(model),
    modelMap: new Map(names.map((name) => [name, name])),
  });

  /** An instance whose listing failed at start and whose next listings fail `failures` times. */
  const unavailable = (instanceId: string, failures: number, names: string[]) => {
    const state = { calls: 0 };
    const instance: LoadedProvider = {
      ...serving(instanceId, []),
      listingError: 'could not be reached',
      relist: async () => {
        state.calls += 1;
        if (state.calls <= failures) throw new GatewayError('TTS_ERR_UNAVAILABLE', `${instanceId} could not be reached`);
        return { models: names.map(model), modelMap: new Map(names.map((name) => [name, `upstream-${name}`])) };
      },
    };
    return { instance, state };
  };

  it('asks a provider that failed at start again with backoff, and serves its models once it answers', async () => {
    const { instance, state } = unavailable('kokoro', 2, ['kokoro-tts-1']);
    const catalog = new Catalog([serving('espeak', ['espeak-ng']), instance], { voiceTtlMs: 60_000, logger: recordingLogger(records) });
    expect(catalog.listModels()).to.deep.equal(['espeak-ng']);
    expect(catalog.unavailableProviders().map((loaded) => loaded.instanceId)).to.deep.equal(['kokoro']);
    relisting = new BackgroundRelisting(catalog, { initialDelayMs: 2, maxDelayMs: 8, logger: recordingLogger(records) });
    relisting.start();
    await eventually(() => catalog.listModels().includes('kokoro-tts-1'));
    expect(state.calls).to.equal(3);
    expect(catalog.listModels()).to.deep.equal(['espeak-ng', 'kokoro-tts-1']);
    expect(catalog.resolve('kokoro-tts-1').providerModelName).to.equal('upstream-kokoro-tts-1');
    expect(catalog.unavailableProviders()).to.deep.equal([]);
    expect(records.filter((record) => record.message.includes('still cannot list'))).to.have.length(2);
    expect(records.some((record) => record.level === 'info' && record.meta?.provider === 'kokoro' && record.meta.models === 1)).to.equal(true);
  });

  it('leaves out a model another provider already serves, instead of stopping', async () => {
    const { instance } = unavailable('kokoro', 0, ['espeak-ng', 'kokoro-tts-1']);
    const catalog = new Catalog([serving('espeak', ['espeak-ng']), instance], { voiceTtlMs: 60_000, logger: recordingLogger(records) });
    relisting = new BackgroundRelisting(catalog, { initialDelayMs: 1, maxDelayMs: 1, logger: recordingLogger(records) });
    relisting.start();
    await eventually(() => catalog.listModels().includes('kokoro-tts-1'));
    expect(catalog.resolve('espeak-ng').instance.instanceId).to.equal('espeak');
    expect(records.some((record) => record.level === 'error' && record.message.includes('"espeak-ng", which another provider serves'))).to.equal(true);
  });

  it('asks again after a listing that never settles and ignores its signal, instead of waiting for it for good', async () => {
    let calls = 0;
    const instance: LoadedProvider = {
      ...serving('deaf', []),
      listingError: 'could not be reached',
      relist: () => {
        calls += 1;
        if (calls === 1) return new Promise(() => undefined);
        return Promise.resolve({ models: [model('deaf-1')], modelMap: new Map([['deaf-1', 'deaf-1']]) });
      },
    };
    const catalog = new Catalog([instance], { voiceTtlMs: 60_000, logger: recordingLogger(records) });
    relisting = new BackgroundRelisting(catalog, { initialDelayMs: 1, maxDelayMs: 2, timeoutMs: 20, logger: recordingLogger(records) });
    relisting.start();
    await eventually(() => catalog.listModels().includes('deaf-1'));
    expect(calls).to.equal(2);
    expect(records.filter((record) => record.message.includes('still cannot list')).map((record) => record.meta?.reason)).to.deep.equal(['did not finish within 0.02 s']);
  });

  it('stops asking when stopped', async () => {
    const { instance, state } = unavailable('kokoro', 1000, ['kokoro-tts-1']);
    const catalog = new Catalog([instance], { voiceTtlMs: 60_000, logger: recordingLogger(records) });
    relisting = new BackgroundRelisting(catalog, { initialDelayMs: 1, maxDelayMs: 2, logger: recordingLogger(records) });
    relisting.start();
    await eventually(() => state.calls >= 2);
    relisting.stop();
    const calls = state.calls;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(state.calls).to.equal(calls);
  });
});
