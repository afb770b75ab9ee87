import { raceAbort } from '../abort/race-abort';
import { gatewayError, isGatewayError } from '../errors';
import type { ModelInfo, Logger, TtsProvider, VoiceInfo } from '../plugin/contract';
import type { LoadedProvider } from '../plugin/plugin-loader';
import type { ModelSelection } from '../plugin/select-models';
import { VoiceListCache } from './voice-list-cache';
import { compareText } from '../objects/compare-text';

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
  readonly logger: Logger;
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

/**
 * Every model of every loaded provider, by catalog name. Models are listed sorted by provider
 * instance id, then by model name (plain code-point order, so the order is the same on every
 * machine). Voice lists are fetched on demand and cached (see VoiceListCache).
 */
export class Catalog {
  private byName = new Map<string, ResolvedModel>();
  private sortedNames: readonly string[] = [];
  private instances: readonly LoadedProvider[];
  private readonly voiceLists: VoiceListCache;
  private readonly logger: Logger;

  /** `providers` come from loadProviders, which has refused clashing model names already. */
  constructor(providers: readonly LoadedProvider[], options: CatalogOptions) {
    this.instances = [...providers].sort((left, right) => compareText(left.instanceId, right.instanceId));
    this.logger = options.logger;
    this.index();
    this.voiceLists = new VoiceListCache((model) => this.fetchVoices(model), {
      ttlMs: options.voiceTtlMs,
      minRefreshIntervalMs: options.minRefreshIntervalMs ?? 10_000,
      retryAfterFailureMs: options.retryAfterFailureMs ?? 30_000,
      maxEntries: options.maxVoiceLists ?? 1000,
      now: options.now ?? Date.now,
      logger: options.logger,
    });
  }

  /** The provider instances, by instance id (with the models each serves now). */
  get providers(): readonly LoadedProvider[] {
    return this.instances;
  }

  /** Instances that serve no model because their listing failed; re-listing retries them. */
  unavailableProviders(): LoadedProvider[] {
    return this.instances.filter((instance) => instance.listingError !== undefined);
  }

  /**
   * Puts an instance's fresh listing in the catalog (after a failed start, it appears without a
   * restart). A model name another instance already serves is left out and logged: the running
   * gateway cannot stop to ask, as the start does.
   */
  updateListing(instanceId: string, selection: ModelSelection): void {
    const current = this.instances.find((instance) => instance.instanceId === instanceId);
    if (!current) throw new Error(`unknown provider instance ${instanceId}`);
    const taken = new Set(this.instances.filter((instance) => instance !== current).flatMap((instance) => [...instance.modelMap.keys()]));
    const models = selection.models.filter((model) => {
      if (!taken.has(model.name)) return true;
      this.logger.error(`Provider "${instanceId}" (${current.configPath}) offers model "${model.name}", which another provider serves; it is left out (rename it with rename:)`);
      return false;
    });
    const modelMap = new Map(models.map((model) => [model.name, selection.modelMap.get(model.name) ?? model.name]));
    const { listingError: _cleared, ...rest } = current;
    const updated: LoadedProvider = { ...rest, models, modelMap };
    this.instances = this.instances.map((instance) => (instance === current ? updated : instance));
    this.index();
  }

  private index(): void {
    const byName = new Map<string, ResolvedModel>();
    const names: string[] = [];
    for (const instance of this.instances) {
      for (const modelInfo of [...instance.models].sort((left, right) => compareText(left.name, right.name))) {
        const providerModelName = instance.modelMap.get(modelInfo.name) ?? modelInfo.name;
        byName.set(modelInfo.name, { instance, provider: instance.provider, modelInfo, providerModelName });
        names.push(modelInfo.name);
      }
    }
    this.byName = byName;
    this.sortedNames = names;
  }

  /** Catalog model names, by provider instance id and then alphabetically. */
  listModels(): string[] {
    return [...this.sortedNames];
  }

  /** Whether the catalog serves this model now. */
  has(model: string): boolean {
    return this.byName.has(model);
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
    // Nearly every request finds its list fresh in the cache: then no promise and no abort listener are made for it.
    const cached = this.voiceLists.fresh(model) ?? (await abortable(this.voiceLists.get(model), signal));
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
  return signal ? raceAbort(promise, signal, () => gatewayError('TTS_ERR_CANCELLED', { subject: 'The request' })) : promise;
}
