import type { ModelInfo, TtsProvider } from '../plugin/contract';
import type { ConformanceOptions } from './conformance-options';
import {
  checkAudio,
  checkModel,
  checkPluginShape,
  checkVoices,
  createProvider,
  ensure,
  expectGatewayError,
  nativeRanges,
} from './conformance-checks';
import { failingFetches } from './failing-fetches';

const DEFAULT_TEXT = 'The quick brown fox jumps over the lazy dog.';

/**
 * The provider conformance suite: one call in a plugin's own mocha tests proves it keeps the
 * contract — listing shapes, VoiceDto fields, every declared format really produced, native
 * ranges accepted, upstream errors mapped to core's codes, cancellation honoured.
 */
export function describeProviderConformance<Options>(options: ConformanceOptions<Options>): void {
  const { plugin } = options;
  const text = options.sampleText ?? DEFAULT_TEXT;
  const httpErrors = options.httpErrorMapping ?? options.fetch !== undefined;

  describe(`conformance: plugin ${plugin.id}`, function () {
    this.timeout(options.timeoutMs ?? 30_000);
    let provider: TtsProvider;
    let models: readonly ModelInfo[] = [];

    before(async () => {
      checkPluginShape(plugin, options.options);
      provider = await createProvider(plugin, options.options, options.fetch);
      await provider.warmUp?.();
      models = await provider.models();
    });
    after(async () => provider?.close?.());

    const synthesisModels = () => models.filter((model) => !options.synthesisModels || options.synthesisModels.includes(model.name));
    const voiceOf = async (model: string) => options.voiceFor?.(model) ?? (await provider.voices(model))[0].voiceId;
    const request = async (model: ModelInfo, extra: { format?: string; speed?: number; pitch?: number; volume?: number } = {}) => ({
      model: model.name,
      voice: await voiceOf(model.name),
      text,
      format: (extra.format ?? model.capabilities.formats[0]) as ModelInfo['capabilities']['formats'][number],
      speed: extra.speed,
      pitch: extra.pitch,
      volume: extra.volume,
      signal: new AbortController().signal,
      requestId: 'conformance',
    });

    it('lists models with URL-safe unique names and sound capabilities', () => {
      ensure(models.length > 0, 'the provider lists no model');
      ensure(new Set(models.map((model) => model.name)).size === models.length, 'model names must be unique');
      models.forEach(checkModel);
    });

    it('lists voices in the VoiceDto shape for every model', async () => {
      for (const model of models) checkVoices(model.name, await provider.voices(model.name));
    });

    it('produces every declared format, and the bytes are that format', async () => {
      for (const model of synthesisModels()) {
        for (const format of model.capabilities.formats) {
          checkAudio(model.name, format, await provider.synthesize(await request(model, { format })));
        }
      }
    });

    it('accepts the ends of every declared native range', async () => {
      for (const model of synthesisModels()) {
        for (const [name, range] of nativeRanges(model)) {
          for (const value of [range.min, range.max]) {
            const audio = await provider.synthesize(await request(model, { [name]: value }));
            checkAudio(model.name, audio.format, audio);
          }
        }
      }
    });

    it('refuses to start when the call is already cancelled', async () => {
      const model = synthesisModels()[0];
      const controller = new AbortController();
      controller.abort();
      await expectGatewayError(provider.synthesize({ ...(await request(model)), signal: controller.signal }), 'TTS_ERR_CANCELLED', 'pre-aborted signal');
    });

    if (!httpErrors) return;

    const failingProvider = (fetchImplementation: typeof fetch) => createProvider(plugin, options.options, fetchImplementation);
    const cases = [
      ['an upstream 401', failingFetches.unauthorized, 'TTS_ERR_UPSTREAM_AUTH'],
      ['an upstream 429', failingFetches.rateLimited, 'TTS_ERR_RATE_LIMITED'],
      ['an upstream 500', failingFetches.serverError, 'TTS_ERR_UPSTREAM'],
      ['an unreachable upstream', failingFetches.unreachable, 'TTS_ERR_UNAVAILABLE'],
    ] as const;
    for (const [situation, fetchImplementation, code] of cases) {
      it(`maps ${situation} during synthesis to ${code}`, async () => {
        const model = synthesisModels()[0];
        const synthesisRequest = await request(model);
        const failing = await failingProvider(fetchImplementation);
        try {
          const error = await expectGatewayError(failing.synthesize(synthesisRequest), code, situation);
          if (code === 'TTS_ERR_RATE_LIMITED') ensure(error.retryAfterSeconds === 3, 'Retry-After must be carried');
        } finally {
          await failing.close?.();
        }
      });
    }

    it('cancels an in-flight call when the signal aborts', async () => {
      const model = synthesisModels()[0];
      const controller = new AbortController();
      const synthesisRequest = { ...(await request(model)), signal: controller.signal };
      const hanging = await failingProvider(failingFetches.hanging);
      try {
        const pending = hanging.synthesize(synthesisRequest);
        setTimeout(() => controller.abort(), 20);
        await expectGatewayError(pending, 'TTS_ERR_CANCELLED', 'aborted in-flight call');
      } finally {
        await hanging.close?.();
      }
    });
  });
}
