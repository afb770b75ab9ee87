import { expect } from 'chai';
import { Catalog, GatewayError, type LoadedProvider, type ModelInfo, type ProviderAudio, type TtsProvider, type VoiceInfo } from '../../../core';
import { recordingLogger, type LogRecord } from '../plugin/plugin-test-helpers';
import { expectGatewayError } from '../../support/gateway-error-assertions';

const capabilities = { formats: ['mp3'] as const, maxInputChars: 100 };

function voice(voiceId: string): VoiceInfo {
  return { voiceId, voiceName: voiceId, language: 'en-US', gender: 'Unknown', description: '' };
}

/** A provider whose voice listing the test steers: a list, a failure, or a pending answer. */
class ScriptedProvider implements TtsProvider {
  voiceCalls: string[] = [];
  next: () => Promise<readonly VoiceInfo[]>;

  constructor(voiceIds: string[]) {
    this.next = async () => voiceIds.map(voice);
  }

  async models(): Promise<readonly ModelInfo[]> {
    return [];
  }

  voices(model: string): Promise<readonly VoiceInfo[]> {
    this.voiceCalls.push(model);
    return this.next();
  }

  async synthesize(): Promise<ProviderAudio> {
    throw new Error('not used');
  }
}

function loaded(instanceId: string, provider: TtsProvider, names: Array<string | [catalogName: string, providerName: string]>): LoadedProvider {
  const pairs = names.map((name) => (typeof name === 'string' ? [name, name] : name));
  return {
    instanceId,
    pluginId: 'scripted',
    configPath: `providers[${instanceId}]`,
    provider,
    models: pairs.map(([catalogName]) => ({ name: catalogName, capabilities })),
    modelMap: new Map(pairs.map(([catalogName, providerName]) => [catalogName, providerName])),
  };
}

describe('core/catalog Catalog', () => {
  let clock: number;
  let records: LogRecord[];
  let provider: ScriptedProvider;
  const ttl = 60_000;

  beforeEach(() => {
    clock = 1_000_000;
    records = [];
    provider = new ScriptedProvider(['amy', 'bob']);
  });

  const catalogOf = (providers: LoadedProvider[], minRefreshIntervalMs = 0) =>
    new Catalog(providers, { voiceTtlMs: ttl, logger: recordingLogger(records), now: () => clock, minRefreshIntervalMs, retryAfterFailureMs: 5_000 });
  const single = (minRefreshIntervalMs = 0) => catalogOf([loaded('acme', provider, ['acme-1', ['acme-eu', 'acme-1-eu']])], minRefreshIntervalMs);

  it('lists models by provider instance id, then alphabetically', () => {
    const other = new ScriptedProvider([]);
    const catalog = catalogOf([loaded('zeta', provider, ['b-model', 'a-model']), loaded('alpha', other, ['y-model', 'x-model'])]);
    expect(catalog.listModels()).to.deep.equal(['x-model', 'y-model', 'a-model', 'b-model']);
  });

  it('resolves a model to its provider and the provider’s own model name', () => {
    const resolved = single().resolve('acme-eu');
    expect(resolved.instance.instanceId).to.equal('acme');
    expect(resolved.provider).to.equal(provider);
    expect(resolved.modelInfo.name).to.equal('acme-eu');
    expect(resolved.providerModelName).to.equal('acme-1-eu');
  });

  it('answers 404 TTS_ERR_MODEL_NOT_FOUND for an unknown model', async () => {
    const catalog = single();
    expect(() => catalog.resolve('nope')).to.throw(GatewayError).with.property('code', 'TTS_ERR_MODEL_NOT_FOUND');
    const error = await expectGatewayError(catalog.listVoices('nope'));
    expect(error.status).to.equal(404);
  });

  it('caches a voice list for the TTL, asking the provider with its own model name', async () => {
    const catalog = single();
    expect((await catalog.listVoices('acme-eu')).map((item) => item.voiceId)).to.deep.equal(['amy', 'bob']);
    clock += ttl - 1;
    await catalog.listVoices('acme-eu');
    expect(provider.voiceCalls).to.deep.equal(['acme-1-eu']);
    clock += 2;
    await catalog.listVoices('acme-eu');
    expect(provider.voiceCalls).to.deep.equal(['acme-1-eu', 'acme-1-eu']);
  });

  it('keeps one list per model', async () => {
    const catalog = single();
    await catalog.listVoices('acme-1');
    await catalog.listVoices('acme-eu');
    await catalog.listVoices('acme-1');
    expect(provider.voiceCalls).to.deep.equal(['acme-1', 'acme-1-eu']);
  });

  it('shares one fetch between concurrent misses', async () => {
    let release: (voices: VoiceInfo[]) => void = () => undefined;
    provider.next = () => new Promise((resolve) => (release = resolve));
    const catalog = single();
    const answers = Promise.all([catalog.listVoices('acme-1'), catalog.listVoices('acme-1'), catalog.findVoice('acme-1', 'amy')]);
    release([voice('amy')]);
    const [first, second, found] = await answers;
    expect(provider.voiceCalls).to.have.length(1);
    expect(second).to.equal(first);
    expect(found.voiceId).to.equal('amy');
  });

  it('finds a known voice without asking the provider again', async () => {
    const catalog = single();
    await catalog.findVoice('acme-1', 'amy');
    await catalog.findVoice('acme-1', 'bob');
    expect(provider.voiceCalls).to.have.length(1);
  });

  it('finds a voice in a fresh list without a listener on the request signal (the hot path), and waits on the signal for a fetch', async () => {
    const catalog = single();
    const controller = new AbortController();
    let listeners = 0;
    const addEventListener = controller.signal.addEventListener.bind(controller.signal);
    controller.signal.addEventListener = ((...args: Parameters<AbortSignal['addEventListener']>) => {
      listeners += 1;
      addEventListener(...args);
    }) as AbortSignal['addEventListener'];
    await catalog.findVoice('acme-1', 'amy', controller.signal);
    expect(listeners).to.equal(1);
    await catalog.findVoice('acme-1', 'bob', controller.signal);
    expect(listeners).to.equal(1);
    expect(provider.voiceCalls).to.have.length(1);
  });

  it('answers a request already cancelled at once, and its voice listing failing later is no unhandled rejection (one would end the process)', async () => {
    const catalog = single();
    provider.next = () => new Promise((_resolve, reject) => setTimeout(() => reject(new Error('the provider is down')), 5));
    const controller = new AbortController();
    controller.abort();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', onUnhandled);
    try {
      await expectGatewayError(catalog.findVoice('acme-1', 'amy', controller.signal), 'TTS_ERR_CANCELLED');
      await new Promise((resolve) => setTimeout(resolve, 30));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(provider.voiceCalls).to.have.length(1);
    expect(unhandled).to.deep.equal([]);
  });

  it('refreshes the list once when a voice is missing, and finds a voice added since', async () => {
    const catalog = single();
    await catalog.listVoices('acme-1');
    provider.next = async () => [voice('amy'), voice('bob'), voice('new-voice')];
    expect((await catalog.findVoice('acme-1', 'new-voice')).voiceId).to.equal('new-voice');
    expect(provider.voiceCalls).to.have.length(2);
  });

  it('answers 404 TTS_ERR_VOICE_NOT_FOUND after exactly one refresh', async () => {
    const catalog = single();
    const error = await expectGatewayError(catalog.findVoice('acme-1', 'zed'));
    expect(error.code).to.equal('TTS_ERR_VOICE_NOT_FOUND');
    expect(error.status).to.equal(404);
    expect(provider.voiceCalls).to.have.length(2);
  });

  it('does not refresh on every miss while the list is younger than the minimum interval', async () => {
    const catalog = single(10_000);
    await expectGatewayError(catalog.findVoice('acme-1', 'zed'));
    await expectGatewayError(catalog.findVoice('acme-1', 'zed'));
    expect(provider.voiceCalls).to.have.length(1);
    clock += 10_000;
    await expectGatewayError(catalog.findVoice('acme-1', 'zed'));
    expect(provider.voiceCalls).to.have.length(2);
  });

  it('serves the last good list past its TTL when the provider fails, logs it, and retries later', async () => {
    const catalog = single();
    await catalog.listVoices('acme-1');
    provider.next = () => Promise.reject(new GatewayError('TTS_ERR_UPSTREAM', 'Acme answered 503'));
    clock += ttl + 1;
    expect((await catalog.listVoices('acme-1')).map((item) => item.voiceId)).to.deep.equal(['amy', 'bob']);
    expect(records.find((record) => record.level === 'warn')?.meta).to.include({ model: 'acme-1', reason: 'Acme answered 503' });
    await catalog.listVoices('acme-1');
    expect(provider.voiceCalls).to.have.length(2);
    clock += 5_001;
    await catalog.listVoices('acme-1');
    expect(provider.voiceCalls).to.have.length(3);
  });

  it('lets the error through for a model that never had a list, without touching other models', async () => {
    const healthy = new ScriptedProvider(['ok']);
    const catalog = catalogOf([loaded('broken', provider, ['broken-1']), loaded('healthy', healthy, ['healthy-1'])]);
    provider.next = () => Promise.reject(new GatewayError('TTS_ERR_TIMEOUT', 'Acme did not answer in time'));
    expect((await expectGatewayError(catalog.listVoices('broken-1'))).status).to.equal(504);
    expect((await catalog.listVoices('healthy-1')).map((item) => item.voiceId)).to.deep.equal(['ok']);
  });

  it('keeps a listing failure for a while: the next requests fail at once with it, without asking the provider, until the retry time', async () => {
    const catalog = single();
    provider.next = () => Promise.reject(new GatewayError('TTS_ERR_TIMEOUT', 'Acme did not answer in time'));
    const first = await expectGatewayError(catalog.findVoice('acme-1', 'amy'));
    expect(first.status).to.equal(504);
    for (let request = 0; request < 3; request += 1) expect(await expectGatewayError(catalog.findVoice('acme-1', 'amy'))).to.equal(first);
    expect(provider.voiceCalls).to.have.length(1);
    expect(records.filter((record) => record.level === 'warn')).to.have.length(1);
    provider.next = async () => [voice('amy')];
    clock += 5_001;
    expect((await catalog.findVoice('acme-1', 'amy')).voiceId).to.equal('amy');
    expect(provider.voiceCalls).to.have.length(2);
    // Once a list came, a later failure serves it (stale) rather than the failure.
    provider.next = () => Promise.reject(new GatewayError('TTS_ERR_TIMEOUT', 'Acme did not answer in time'));
    clock += ttl + 1;
    expect((await catalog.findVoice('acme-1', 'amy')).voiceId).to.equal('amy');
  });

  it('turns a plugin bug into a 502 without its message', async () => {
    provider.next = () => Promise.reject(new TypeError('cannot read properties of undefined'));
    const error = await expectGatewayError(single().listVoices('acme-1'));
    expect(error.code).to.equal('TTS_ERR_UPSTREAM');
    expect(error.message).to.not.include('undefined');
  });

  it('stops waiting for a caller whose request was cancelled, while the shared fetch completes', async () => {
    let release: (voices: VoiceInfo[]) => void = () => undefined;
    provider.next = () => new Promise((resolve) => (release = resolve));
    const catalog = single();
    const controller = new AbortController();
    const cancelled = expectGatewayError(catalog.listVoices('acme-1', controller.signal));
    const patient = catalog.listVoices('acme-1');
    controller.abort();
    expect((await cancelled).code).to.equal('TTS_ERR_CANCELLED');
    release([voice('amy')]);
    expect(await patient).to.have.length(1);
  });
});
