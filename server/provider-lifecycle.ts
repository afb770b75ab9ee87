import type { GatewayConfig } from '../config/types';
import { closeProvider, DEFAULT_CLOSE_TIMEOUT_MS, loadProviders, raceTimeLimit, warmUpProviders, type LoadedProvider, type LoadProvidersOptions, type Logger } from '../core';

/** Time limits of the plugins' `create()` and `close()`: tests shorten them; defaults 30 s and 10 s. */
export type PluginTimeLimits = Pick<LoadProvidersOptions, 'createTimeoutMs' | 'closeTimeoutMs'>;

export interface ProviderStart {
  readonly logger: Logger;
  readonly builtInDirectory: string;
  readonly fetch: typeof fetch;
  /** Aborted at the stop, or when the start fails: a `create()` still running is told to stop. */
  readonly signal: AbortSignal;
  readonly timeLimits?: PluginTimeLimits;
}

/**
 * Loads the configured providers (a failure closes those already made and rejects) and starts
 * their warm-ups, which run while the rest is built and while the gateway already answers.
 * `warmedUp` is the caller's to handle (a rejection is a failed start).
 */
export async function startProviders(config: GatewayConfig, start: ProviderStart): Promise<{ providers: LoadedProvider[]; warmedUp: Promise<void> }> {
  const providers = await loadProviders(config.providers, {
    builtInDirectory: start.builtInDirectory,
    configDirectory: config.baseDirectory,
    logger: start.logger,
    fetch: start.fetch,
    signal: start.signal,
    ...start.timeLimits,
  });
  const warmedUp = warmUpProviders(providers, config.providers);
  warmedUp.catch(() => undefined); // kept from going unhandled until the caller takes it
  return { providers, warmedUp };
}

/**
 * Waits for the warm-ups before the providers are closed (not under them); one that never ends
 * gets the close's time limit, so that it cannot hold the stop for good.
 */
export async function awaitWarmUps(warmedUp: Promise<void>, logger: Logger, timeLimits?: PluginTimeLimits): Promise<void> {
  const limitMs = timeLimits?.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;
  await raceTimeLimit(warmedUp.catch(() => undefined), limitMs).catch(() =>
    logger.warn(`A provider's warm-up did not end within ${limitMs / 1000} s of the stop; closing the providers anyway`),
  );
}

/** Closes every provider together, each within its time limit: a stuck plugin is logged, and the stop goes on. */
export async function closeProviders(providers: readonly LoadedProvider[], logger: Logger, timeLimits?: PluginTimeLimits): Promise<void> {
  await Promise.all(providers.map((loaded) => closeProvider(loaded.provider, loaded.instanceId, logger, timeLimits?.closeTimeoutMs)));
}
