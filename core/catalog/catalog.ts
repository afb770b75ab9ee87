import { gatewayError, isGatewayError } from '../errors';
import type { ModelInfo, PluginLogger, TtsProvider, VoiceInfo } from '../plugin/contract';
import { assertNoModelClashes } from '../plugin/model-clashes';
import type { LoadedProvider } from '../plugin/plugin-loader';
import { VoiceListCache } from './voice-list-cache';

/** A catalog model name, resolved to the provider instance that serves it. */
export interface ResolvedModel {
  readonly instance: LoadedProvider;
  readonly provider: TtsProvider;
  /** The model as the catalog shows it (its `name` is the catalog name). */
  readonly modelInfo: ModelInfo;
  /** The name to send the provider (differs from the catalog name after `rename:`). */
  readonly providerModelName: string;
}

export interface CatalogOptions {
  /** How long a voice list stays fresh. */
  readonly voiceTtlMs: number;
  readonly logger: PluginLogger;
  /** Clock in milliseconds; tests pass a fake one. */
  readonly now?: () => number;
  /** A voice miss refreshes the list only when it is older than this; default 10 s. */
  readonly minRefreshIntervalMs?: number;
  /** A failing provider is asked again after this; default 30 s. */
  readonly retryAfterFailureMs?: number;
  /** Voice lists kept at most; default 1000. */
  readonly maxVoiceLists?: number;
}

const MAX_ECHOED_NAME = 100;

function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/**
 * Every model of every loaded provider, by catalog name. Models are listed sorted by provider
 * instance id, then by model name (plain code-point order, so the order is the same on every
 * machine). Voice lists are fetched on demand and cached (see VoiceListCache).
 */
export class Catalog {
  private readonly byName = new Map<string, ResolvedModel>();
  private readonly sortedNames: readonly string[];
  private readonly voiceLists: VoiceListCache;

  constructor(
    readonly providers: readonly LoadedProvider[],
    options: CatalogOptions,
  ) {
    assertNoModelClashes(providers);
    const ordered = [...providers].sort((left, right) => compareText(left.instanceId, right.instanceId));
    const names: string[] = [];
    for (const instance of ordered) {
      for (const modelInfo of [...instance.models].sort((left, right) => compareText(left.name, right.name))) {
        const providerModelName = instance.modelMap.get(modelInfo.name) ?? modelInfo.name;
        this.byName.set(modelInfo.name, { instance, provider: instance.provider, modelInfo, providerModelName });
        names.push(modelInfo.name);
      }
    }
    this.sortedNames = names;
    this.voiceLists = new VoiceListCache((model) => this.fetchVoices(model), {
      ttlMs: options.voiceTtlMs,
      minRefreshIntervalMs: options.minRefreshIntervalMs ?? 10_000,
      retryAfterFailureMs: options.retryAfterFailureMs ?? 30_000,
      maxEntries: options.maxVoiceLists ?? 1000,
      now: options.now ?? Date.now,
      logger: options.logger,
    });
  }

  /** Catalog model names, by provider instance id and then alphabetically. */
  listModels(): string[] {
    return [...this.sortedNames];
  }

  /** The provider and capabilities of a model, or 404 TTS_ERR_MODEL_NOT_FOUND. */
  resolve(model: string): ResolvedModel {
    const resolved = this.byName.get(model);
    if (!resolved) {
      throw gatewayError('TTS_ERR_MODEL_NOT_FOUND', { provider: 'The gateway', model: model.slice(0, MAX_ECHOED_NAME), served: 'the models its model list names' }, {
        details: [{ field: 'model', reason: 'unknown' }],
      });
    }
    return resolved;
  }

  /** The voices of a model (cached; the last good list when the provider fails). */
  async listVoices(model: string, signal?: AbortSignal): Promise<readonly VoiceInfo[]> {
    this.resolve(model);
    return abortable(this.voiceLists.get(model), signal);
  }

  /** One voice of a model; a miss refreshes the list once before answering 404. */
  async findVoice(model: string, voiceId: string, signal?: AbortSignal): Promise<VoiceInfo> {
    this.resolve(model);
    const cached = await abortable(this.voiceLists.get(model), signal);
    const voice = cached.find((candidate) => candidate.voiceId === voiceId) ?? (await abortable(this.voiceLists.get(model, true), signal)).find((candidate) => candidate.voiceId === voiceId);
    if (!voice) {
      throw gatewayError('TTS_ERR_VOICE_NOT_FOUND', { provider: 'The gateway', voice: voiceId.slice(0, MAX_ECHOED_NAME), model }, {
        details: [{ field: 'voice', reason: 'unknown' }],
      });
    }
    return voice;
  }

  private async fetchVoices(model: string): Promise<readonly VoiceInfo[]> {
    const { provider, providerModelName, instance } = this.resolve(model);
    try {
      return await provider.voices(providerModelName);
    } catch (error) {
      if (isGatewayError(error)) throw error;
      throw gatewayError('TTS_ERR_UPSTREAM', { provider: `Provider "${instance.instanceId}"`, upstream: `listing the voices of model "${model}"` }, { cause: error });
    }
  }
}

/** The shared fetch goes on for other callers; this caller stops waiting when its signal aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(gatewayError('TTS_ERR_CANCELLED', { subject: 'The request' }));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(gatewayError('TTS_ERR_CANCELLED', { subject: 'The request' }));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
