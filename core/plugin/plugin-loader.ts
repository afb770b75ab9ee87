import { resolve } from 'node:path';
import type { ProviderEntry } from '../../config/types';
import { raceTimeLimit, TimeLimitExceeded } from '../abort/race-time-limit';
import { isGatewayError } from '../errors';
import { boundedFetch, DEFAULT_MAX_RESPONSE_BYTES, redactSecrets } from '../http';
import { checkPluginShape, providerMisfit, pluginExport } from './check-plugin-shape';
import { closeProvider } from './close-provider';
import type { ModelInfo, PluginContext, Logger, TtsPlugin, TtsProvider } from './contract';
import { assertNoModelClashes } from './model-clashes';
import { PluginLoadError } from './plugin-load-error';
import { resolvePluginModule } from './resolve-plugin-module';
import { selectModels, type ModelSelection } from './select-models';
import { validatePluginOptions } from './validate-plugin-options';

/** One running provider instance, with the models it serves under their catalog names. */
export interface LoadedProvider {
  /** The entry's `id`, else the plugin's id; unique in the gateway. */
  readonly instanceId: string;
  readonly pluginId: string;
  readonly provider: TtsProvider;
  /** After the entry's `models:` filter and `rename:`; empty when listing failed at start. */
  readonly models: readonly ModelInfo[];
  /** Catalog name -> the provider's own model name. */
  readonly modelMap: ReadonlyMap<string, string>;
  /** Where the entry is in the config, e.g. `providers[2]`. */
  readonly configPath: string;
  /** Why `models()` failed at start, when it did: the instance is kept and listed again in the background. */
  readonly listingError?: string;
  /** Asks the provider for its models again, with the entry's `models:` and `rename:` applied. */
  readonly relist?: (signal: AbortSignal) => Promise<ModelSelection>;
}

export interface LoadProvidersOptions {
  /** Folder of the built-in plugins: `<builtInDirectory>/<name>/index.js`. */
  readonly builtInDirectory: string;
  /** The config file's folder: plugin paths are relative to it, packages are looked up from it. */
  readonly configDirectory: string;
  readonly logger: Logger;
  readonly fetch: typeof fetch;
  /** Aborted when the gateway shuts down. */
  readonly signal: AbortSignal;
  /** More folders to resolve packages from; defaults to the gateway's own installation. */
  readonly requireFrom?: readonly string[];
  /** Deadline of each provider's start-up `models()` call; defaults to 30 s. */
  readonly modelsTimeoutMs?: number;
  /** Time limit of each plugin's `create()`; defaults to 30 s. */
  readonly createTimeoutMs?: number;
  /** Time limit of each provider's `close()` when a failed load closes those it created; defaults to 10 s. */
  readonly closeTimeoutMs?: number;
}

interface PreparedEntry {
  readonly entry: ProviderEntry;
  readonly configPath: string;
  readonly plugin: TtsPlugin;
  readonly instanceId: string;
  readonly options: Record<string, unknown>;
}

const GATEWAY_ROOT = resolve(__dirname, '..', '..');
/** Time a plugin's `create()` is given: it may download a voice list or load a model. */
export const DEFAULT_CREATE_TIMEOUT_MS = 30_000;
/** Time a provider's model listing is given, at start and in the background. */
export const DEFAULT_MODELS_TIMEOUT_MS = 30_000;
const SECRET_KEY = /key|secret|token|password|credential/i;

/** Option values that may be secrets, to scrub from a plugin's error messages. */
function secretValues(value: unknown, key = ''): string[] {
  if (typeof value === 'string') return SECRET_KEY.test(key) ? [value] : [];
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([childKey, child]) => secretValues(child, childKey));
  return [];
}

function errorMessage(error: unknown, secrets: readonly string[] = []): string {
  return redactSecrets(error instanceof Error ? error.message : String(error), secrets);
}

function prepare(entry: ProviderEntry, index: number, options: LoadProvidersOptions): PreparedEntry {
  const configPath = entry.configPath ?? `providers[${index}]`;
  const resolved = resolvePluginModule(entry.plugin, {
    builtInDirectory: options.builtInDirectory,
    configDirectory: options.configDirectory,
    requireFrom: options.requireFrom ?? [GATEWAY_ROOT],
    configPath,
  });
  let moduleExports: unknown;
  try {
    // Dynamic by resolved path only: core never imports a plugin statically.
    moduleExports = require(resolved.modulePath);
  } catch (error) {
    throw new PluginLoadError('TTS_PLUGIN_LOAD_FAILED', { plugin: `"${entry.plugin}"`, configPath, reason: `it threw while loading: ${errorMessage(error)}` }, { configPath, cause: error });
  }
  const plugin = checkPluginShape(pluginExport(moduleExports), `"${entry.plugin}"`, configPath);
  const instanceId = entry.id ?? plugin.id;
  const validated = validatePluginOptions(plugin.optionsSchema, entry.options, { describe: `"${instanceId}"`, configPath });
  return { entry, configPath, plugin, instanceId, options: validated };
}

function assertUniqueInstanceIds(prepared: readonly PreparedEntry[]): void {
  const seen = new Map<string, string>();
  for (const { instanceId, configPath } of prepared) {
    const first = seen.get(instanceId);
    if (first) {
      throw new PluginLoadError('TTS_PLUGIN_DUPLICATE_ID', { provider: `"${instanceId}"`, first, configPath }, { configPath });
    }
    seen.set(instanceId, configPath);
  }
}

function instanceLogger(logger: Logger, instanceId: string): Logger {
  const withProvider = (meta?: Record<string, unknown>) => ({ provider: instanceId, ...meta });
  return {
    debug: (message, meta) => logger.debug(message, withProvider(meta)),
    info: (message, meta) => logger.info(message, withProvider(meta)),
    warn: (message, meta) => logger.warn(message, withProvider(meta)),
    error: (message, meta) => logger.error(message, withProvider(meta)),
  };
}

/** The provider's models, or the reason it could not list them (one outage must not stop the start). */
async function listModels(provider: TtsProvider, prepared: PreparedEntry, options: LoadProvidersOptions): Promise<{ offered: readonly ModelInfo[]; error?: string }> {
  const limitMs = options.modelsTimeoutMs ?? DEFAULT_MODELS_TIMEOUT_MS;
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(limitMs)]);
  try {
    // Raced as well as signalled: a plugin that ignores its signal must not hold the start.
    return { offered: await raceTimeLimit(Promise.resolve().then(() => provider.models(signal)), limitMs) };
  } catch (error) {
    const reason = errorMessage(error, secretValues(prepared.options));
    options.logger.error(`Provider "${prepared.instanceId}" (${prepared.configPath}) could not list its models; it is unavailable and will be asked again in the background`, {
      provider: prepared.instanceId,
      reason,
    });
    return { offered: [], error: reason };
  }
}

async function instantiate(prepared: PreparedEntry, options: LoadProvidersOptions): Promise<LoadedProvider> {
  const { plugin, instanceId, configPath, entry } = prepared;
  // Every answer of this provider is read to its entry's maxResponseBytes at most.
  const fetch = boundedFetch(options.fetch, entry.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, instanceId);
  const context: PluginContext = { instanceId, logger: instanceLogger(options.logger, instanceId), fetch, signal: options.signal };
  let provider: TtsProvider;
  // Promise.resolve().then: a create() that throws at once is a rejection like one that fails later.
  const creation = Promise.resolve().then(() => plugin.create(prepared.options, context));
  try {
    provider = await raceTimeLimit(creation, options.createTimeoutMs ?? DEFAULT_CREATE_TIMEOUT_MS);
  } catch (error) {
    // A hung create() is a failed one; the provider it may still answer is closed, as nothing else will.
    if (error instanceof TimeLimitExceeded) {
      void creation.then(
        (late) => closeProvider(late, instanceId, options.logger, options.closeTimeoutMs),
        () => undefined, // a late failure: nothing to close
      );
    }
    const reason = error instanceof TimeLimitExceeded ? `its create() ${error.message}` : errorMessage(error, secretValues(prepared.options));
    throw new PluginLoadError('TTS_PLUGIN_CREATE_FAILED', { provider: `"${instanceId}"`, configPath, plugin: plugin.id, reason }, { configPath, cause: error });
  }
  const misfit = providerMisfit(provider);
  if (misfit !== undefined) {
    await closeProvider(provider as Partial<TtsProvider> | undefined, instanceId, options.logger, options.closeTimeoutMs);
    throw new PluginLoadError('TTS_PLUGIN_BAD_SHAPE', { plugin: `"${entry.plugin}"`, configPath, problem: misfit }, { configPath });
  }
  const where = `Provider "${instanceId}" (${configPath})`;
  const relist = async (signal: AbortSignal): Promise<ModelSelection> => {
    let offered: readonly ModelInfo[];
    try {
      offered = await provider.models(signal);
    } catch (error) {
      // The reason reaches the log: scrub the entry's secrets from it first.
      throw new Error(errorMessage(error, secretValues(prepared.options)), { cause: error });
    }
    return selectModels(offered, entry, options.logger, where);
  };
  const listing = await listModels(provider, prepared, options);
  if (listing.error !== undefined) return { instanceId, pluginId: plugin.id, provider, configPath, models: [], modelMap: new Map(), listingError: listing.error, relist };
  const selection = selectModels(listing.offered, entry, options.logger, where);
  return { instanceId, pluginId: plugin.id, provider, configPath, ...selection, relist };
}

/**
 * Runs every provider's warm-up and settles once all are over (none is closed under its warm-up).
 * A failure (a throw, at once or later) rejects with a PluginLoadError naming the entry, its
 * option values that look like secrets scrubbed; core's coded errors keep their own message.
 */
export async function warmUpProviders(loaded: readonly LoadedProvider[], entries: readonly ProviderEntry[]): Promise<void> {
  const outcomes = await Promise.allSettled(
    loaded.map(async ({ provider, instanceId, pluginId, configPath }) => {
      try {
        await provider.warmUp?.();
      } catch (error) {
        if (isGatewayError(error)) throw error;
        const options = entries.find((entry) => entry.configPath === configPath)?.options;
        throw new PluginLoadError(
          'TTS_PLUGIN_CREATE_FAILED',
          { provider: `"${instanceId}"`, configPath, plugin: pluginId, reason: `its warm-up failed: ${errorMessage(error, secretValues(options))}` },
          { configPath, cause: error },
        );
      }
    }),
  );
  const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed) throw failed.reason;
}

/** Closes the providers together, each within its time limit: a failed start ends even if one hangs. */
async function closeAll(loaded: readonly LoadedProvider[], options: LoadProvidersOptions): Promise<void> {
  await Promise.all(loaded.map(({ provider, instanceId }) => closeProvider(provider, instanceId, options.logger, options.closeTimeoutMs)));
}

/**
 * Loads every provider entry in config order: resolves and checks each plugin, validates its
 * options, creates the instance and lists its models. Any problem (a `create()` past its time
 * limit too) stops the start with a PluginLoadError naming the entry; instances already created
 * are closed first, each within its close time limit.
 */
export async function loadProviders(entries: readonly ProviderEntry[], options: LoadProvidersOptions): Promise<LoadedProvider[]> {
  const prepared = entries.map((entry, index) => prepare(entry, index, options));
  assertUniqueInstanceIds(prepared);
  const loaded: LoadedProvider[] = [];
  try {
    for (const entry of prepared) loaded.push(await instantiate(entry, options));
    assertNoModelClashes(loaded);
  } catch (error) {
    await closeAll(loaded, options);
    throw error;
  }
  return loaded;
}
