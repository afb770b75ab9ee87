import type { AudioFormat } from '../audio/audio-format';
import type { ModelInfo, ProviderSynthesisRequest, TtsProvider } from '../plugin/contract';
import type { ConformanceGroupName, ConformanceOptions } from './conformance-options';
import { checkAudio, checkModel, checkPluginAndOptions, checkVoices, createProvider, ensure, expectGatewayError, nativeRanges } from './conformance-checks';
import { failingFetches } from './failing-fetches';
import { streamingChecks } from './streaming-checks';

/** What one check found: it passed, or it did not apply to this plugin (and why). */
export type CheckOutcome = { readonly status: 'passed' } | { readonly status: 'skipped'; readonly reason: string };

/** One check: throws a `ConformanceFailure` (or any error) when the plugin breaks its promise. */
export interface ConformanceCheck {
  readonly name: string;
  run(): Promise<CheckOutcome>;
}

export interface ConformanceGroup {
  readonly name: ConformanceGroupName;
  readonly checks: readonly ConformanceCheck[];
}

/**
 * The conformance suite as plain data and functions, tied to no test runner: `setUp` creates
 * the provider, each check runs against it, `tearDown` closes it.
 */
export interface ConformanceSuite {
  readonly name: string;
  readonly groups: readonly ConformanceGroup[];
  setUp(): Promise<void>;
  tearDown(): Promise<void>;
}

const DEFAULT_TEXT = 'The quick brown fox jumps over the lazy dog.';
const PASSED: CheckOutcome = { status: 'passed' };

/** The suite for one plugin; groups switched off in `options.groups` are left out. */
export function conformanceSuite<Options>(options: ConformanceOptions<Options>): ConformanceSuite {
  const { plugin } = options;
  const text = options.sampleText ?? DEFAULT_TEXT;
  const overHttp = options.httpErrorMapping ?? options.fetch !== undefined;
  let provider: TtsProvider | undefined;
  let models: readonly ModelInfo[] = [];

  const live = (): TtsProvider => {
    ensure(provider, 'the provider was not created (setUp failed or was not run)');
    return provider;
  };
  const synthesisModels = () => models.filter((model) => !options.synthesisModels || options.synthesisModels.includes(model.name));
  const firstModel = () => {
    const [model] = synthesisModels();
    ensure(model, 'the provider lists no model to synthesize with');
    return model;
  };
  const voiceOf = async (model: string) => options.voiceFor?.(model) ?? (await live().voices(model))[0].voiceId;
  const request = async (model: ModelInfo, extra: Partial<ProviderSynthesisRequest> = {}): Promise<ProviderSynthesisRequest> => ({
    model: model.name,
    voice: await voiceOf(model.name),
    text,
    format: model.capabilities.formats[0] as AudioFormat,
    signal: new AbortController().signal,
    requestId: 'conformance',
    ...extra,
  });
  const withProvider = async (fetchImplementation: typeof fetch, run: (provider: TtsProvider) => Promise<void>): Promise<CheckOutcome> => {
    const other = await createProvider(plugin, options.options, fetchImplementation);
    try {
      await run(other);
      return PASSED;
    } finally {
      await other.close?.();
    }
  };
  const check = (name: string, run: () => Promise<CheckOutcome | void>): ConformanceCheck => ({ name, run: async () => (await run()) ?? PASSED });

  const groups: ConformanceGroup[] = [
    {
      name: 'catalog',
      checks: [
        check('lists models with URL-safe unique names and sound capabilities', async () => {
          ensure(models.length > 0, 'the provider lists no model');
          ensure(new Set(models.map((model) => model.name)).size === models.length, 'model names must be unique');
          models.forEach(checkModel);
        }),
        check('lists voices in the VoiceDto shape for every model', async () => {
          for (const model of models) checkVoices(model.name, await live().voices(model.name));
        }),
      ],
    },
    {
      name: 'formats',
      checks: [
        check('produces every declared format, and the bytes are that format', async () => {
          for (const model of synthesisModels()) {
            for (const format of model.capabilities.formats) checkAudio(model.name, format, await live().synthesize(await request(model, { format })));
          }
        }),
        check('accepts the ends of every declared native range', async () => {
          for (const model of synthesisModels()) {
            for (const [name, range] of nativeRanges(model)) {
              for (const value of [range.min, range.max]) {
                const audio = await live().synthesize(await request(model, { [name]: value }));
                checkAudio(model.name, audio.format, audio);
              }
            }
          }
        }),
      ],
    },
    {
      name: 'errors',
      checks: (
        [
          ['an upstream 401', failingFetches.unauthorized, 'TTS_ERR_UPSTREAM_AUTH'],
          ['an upstream 429', failingFetches.rateLimited, 'TTS_ERR_RATE_LIMITED'],
          ['an upstream 500', failingFetches.serverError, 'TTS_ERR_UPSTREAM'],
          ['an unreachable upstream', failingFetches.unreachable, 'TTS_ERR_UNAVAILABLE'],
        ] as const
      ).map(([situation, fetchImplementation, code]) =>
        check(`maps ${situation} during synthesis to ${code}`, async () => {
          if (!overHttp) return { status: 'skipped', reason: 'the plugin does not call its provider through context.fetch' };
          const synthesisRequest = await request(firstModel());
          return withProvider(fetchImplementation, async (failing) => {
            const error = await expectGatewayError(failing.synthesize(synthesisRequest), code, situation);
            if (code === 'TTS_ERR_RATE_LIMITED') ensure(error.retryAfterSeconds === 3, 'Retry-After must be carried');
          });
        }),
      ),
    },
    {
      name: 'cancellation',
      checks: [
        check('refuses to start when the call is already cancelled', async () => {
          const controller = new AbortController();
          controller.abort();
          await expectGatewayError(live().synthesize(await request(firstModel(), { signal: controller.signal })), 'TTS_ERR_CANCELLED', 'pre-aborted signal');
        }),
        check('cancels an in-flight call when the signal aborts', async () => {
          if (!overHttp) return { status: 'skipped', reason: 'the plugin does not call its provider through context.fetch' };
          const controller = new AbortController();
          const synthesisRequest = await request(firstModel(), { signal: controller.signal });
          return withProvider(failingFetches.hanging, async (hanging) => {
            const pending = hanging.synthesize(synthesisRequest);
            setTimeout(() => controller.abort(), 20);
            await expectGatewayError(pending, 'TTS_ERR_CANCELLED', 'aborted in-flight call');
          });
        }),
      ],
    },
    { name: 'streaming', checks: streamingChecks({ live, synthesisModels, firstModel, request, withProvider, overHttp, fetch: options.fetch, streamingStandIn: options.streamingStandIn }, check) },
  ];

  return {
    name: `conformance: plugin ${plugin.id}`,
    groups: groups.filter((group) => options.groups?.[group.name] !== false),
    setUp: async () => {
      checkPluginAndOptions(plugin, options.options);
      provider = await createProvider(plugin, options.options, options.fetch);
      await provider.warmUp?.();
      models = await provider.models();
    },
    tearDown: async () => {
      await provider?.close?.();
      provider = undefined;
    },
  };
}
