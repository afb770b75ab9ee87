import 'reflect-metadata';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Application } from 'express';
import { container as rootContainer, instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import type { Logger } from 'winston';
import type { GatewayConfig } from '../config/types';
import {
  AccountService,
  AudioProcessor,
  BackgroundRelisting,
  CachedSynthesis,
  cachedAccountLimits,
  createPooledFetch,
  Catalog,
  LoginThrottle,
  MemoryWindowCounters,
  ModelRouter,
  ProviderHealth,
  ResilientProvider,
  ResultCache,
  SynthesisLimiter,
  StorageQuota,
  SynthesisService,
  type AccountStore,
  type AudioStore,
  type LoadedProvider,
  type Metrics,
  type ModelRoute,
  type WindowCounters,
} from '../core';
import { createApp } from './app';
import { createAudioStore } from './create-audio-store';
import { openDatabase } from './open-database';
import { connectSharedState, type SharedState } from './shared-state';
import { TOKENS } from './container-tokens';
import { audioSink, cacheStorage, lazyAudioEngine, modelDirectory } from './gateway-adapters';
import { createLogger } from './logger';
import { PrometheusMetrics } from './metrics/prometheus-metrics';
import { recordProviderFailure } from './provider-failure-health';
import { providerOfModel, refusesRouteCalls } from './catalog-lookups';
import { fallbackAnswersWhileNeeded } from './fallback-answers';
import { modelLists } from './model-lists';
import { synthesisFunctions } from './synthesis-functions';
import { awaitWarmUps, closeProviders, startProviders, type PluginTimeLimits } from './provider-lifecycle';
import { reportQueueDepth, startKeySweeper } from './periodic-jobs';

/** Where built-in plugins are compiled to: dist/plugins/<name>/index.js. */
const BUILT_IN_PLUGINS = join(__dirname, '..', 'plugins');
/** Keys' `lastUsedAt` and usage rows are written together once a second, off the request path. */
const ACTIVITY_FLUSH_MS = 1000;
/** A key in steady use has its `lastUsedAt` written once a minute, not with every batch (reads still show the newest use). */
const LAST_USE_RESOLUTION_MS = 60_000;
/** How long an account's limit overrides are cached (a CLI change applies within this). */
const ACCOUNT_LIMITS_TTL_MS = 30_000;
/**
 * How long a result-cache hit may take to read its stored bytes (a small file; a larger one gets
 * a second more per MiB), at most `synthesis.timeout`: a hit is read in milliseconds, and one
 * that takes seconds means the store is in trouble: the provider answers sooner.
 */
const HIT_READ_TIMEOUT_MS = 5_000;

export interface ComposeOptions {
  /** Stands in for the network in tests; defaults to the global fetch. */
  readonly fetch?: typeof fetch;
  /** Defaults to a winston logger built from `config.logging`. */
  readonly logger?: Logger;
  /** Time limits of the plugins' `create()` and `close()`: tests shorten them; defaults 30 s and 10 s. */
  readonly pluginTimeLimits?: PluginTimeLimits;
}

/** A composed gateway: the Express app and a way to release everything it holds. */
export interface Gateway {
  readonly app: Application;
  readonly config: GatewayConfig;
  readonly logger: Logger;
  readonly container: DependencyContainer;
  /** A stop began: /health/ready answers 503 from now on, so load balancers drain this instance. */
  markStopping(): void;
  /**
   * Settles once every provider's warm-up has: the gateway answers meanwhile (/health/ready says
   * "warming up"); a rejection is a failed start.
   */
  readonly warmedUp: Promise<void>;
  close(): Promise<void>;
}

/**
 * Builds the whole gateway from a validated config. Asynchronous start-up work (plugins) happens
 * here once; the container then hands out ready singletons. Provider warm-ups go on after it
 * returns (`warmedUp`).
 */
export async function composeGateway(config: GatewayConfig, options: ComposeOptions = {}): Promise<Gateway> {
  const container = rootContainer.createChildContainer();
  const shutdown = new AbortController();
  const logger = options.logger ?? createLogger(config.logging);
  container.register(TOKENS.config, { useValue: config });
  container.register(TOKENS.logger, { useValue: logger });
  // Providers share one keep-alive connection pool, unless a test brings its own fetch.
  const pooled = options.fetch ? undefined : createPooledFetch();
  container.register(TOKENS.fetch, { useValue: options.fetch ?? pooled?.fetch });
  const accountStore = await openDatabase(config.database);
  const audioStorage = createAudioStore(config.storage, logger);
  const shared = connectSharedState(config, logger);
  registerStorage(container, config, logger, accountStore, audioStorage.store, shared);

  for (const skipped of config.skippedProviders) {
    logger.info('provider skipped: its environment variables are not set', { plugin: skipped.plugin, id: skipped.id, missing: skipped.missingVariables });
  }
  // The audio workers start with the first request that needs them (decoding, DSP, encoding),
  // and each loads a codec at its first use: start-up waits for none, and a gateway that only
  // passes audio through never starts them.
  let audioProcessor: AudioProcessor | undefined;
  const audioWorkers = config.synthesis.audioWorkers ?? availableParallelism();
  const startedAudioProcessor = (): AudioProcessor =>
    (audioProcessor ??= new AudioProcessor({
      workers: audioWorkers,
      ffmpegPath: config.audio.ffmpegPath,
      // A worker can get through about a one-second job per second of the deadline: more would only wait to time out.
      maxQueuedTasks: config.synthesis.maxQueuedTasks ?? audioWorkers * Math.ceil(config.synthesis.timeoutMs / 1000),
    }));
  container.register(TOKENS.audioProcessor, { useFactory: startedAudioProcessor });
  let started: { providers: LoadedProvider[]; warmedUp: Promise<void> };
  try {
    // Warm-ups (an engine loading in a worker thread, 0.2 s of a 0.9 s start) run while the rest is
    // built and while the gateway already answers: a synthesis meanwhile waits for its engine.
    started = await startProviders(config, {
      logger,
      builtInDirectory: BUILT_IN_PLUGINS,
      fetch: container.resolve<typeof fetch>(TOKENS.fetch),
      signal: shutdown.signal,
      timeLimits: options.pluginTimeLimits,
    });
  } catch (error) {
    // A failed start is a shutdown: a create() still running after its time limit is told to stop.
    shutdown.abort();
    await Promise.allSettled([accountStore.close(), shared.close(), pooled?.close()]);
    audioStorage.close();
    throw error;
  }
  const { warmedUp } = started;
  const metrics = new PrometheusMetrics({ processMetrics: true });
  const providerHealth = new ProviderHealth();
  const providers = started.providers.map((loaded) => withResilience(loaded, config, logger, metrics, providerHealth));
  container.register(TOKENS.providers, { useValue: providers });
  container.register(TOKENS.catalog, {
    useFactory: instanceCachingFactory((scope) => new Catalog(scope.resolve<LoadedProvider[]>(TOKENS.providers), { voiceTtlMs: config.cache.catalogTtlMs, logger })),
  });
  container.register(TOKENS.router, {
    useFactory: instanceCachingFactory((scope) => {
      const catalog = scope.resolve<Catalog>(TOKENS.catalog);
      // Asked at each request: a provider listed late by re-listing joins its routes then.
      return new ModelRouter(routesOf(config), (model: string) => catalog.has(model));
    }),
  });
  container.register(TOKENS.synthesis, {
    useFactory: instanceCachingFactory(
      (scope) =>
        new SynthesisService(
          modelDirectory(scope.resolve<Catalog>(TOKENS.catalog)),
          lazyAudioEngine(startedAudioProcessor, config.audio),
          audioSink(scope.resolve<AudioStore>(TOKENS.audioStore), ownerRecording(config)),
          logger,
          { chunkConcurrency: config.synthesis.chunkConcurrency, timeoutMs: config.synthesis.timeoutMs, maxAudioSeconds: config.synthesis.maxAudioDurationMs / 1000 },
          scope.resolve<ModelRouter>(TOKENS.router),
        ),
    ),
  });

  container.register(TOKENS.metrics, { useValue: metrics });
  const stopQueueGauge = reportQueueDepth(metrics, () => audioProcessor);
  container.register(TOKENS.providerHealth, { useValue: providerHealth });
  for (const loaded of providers) {
    providerHealth.add(loaded.instanceId, loaded.models.length, loaded.listingError);
    metrics.breakerState(loaded.instanceId, 'closed');
  }
  let stopping = false;
  let warmingUp = true;
  void warmedUp.then(() => (warmingUp = false), () => undefined);

  const catalog = container.resolve<Catalog>(TOKENS.catalog);
  const router = container.resolve<ModelRouter>(TOKENS.router);
  const results = config.cache.results;
  const cached = new CachedSynthesis(
    container.resolve<SynthesisService>(TOKENS.synthesis),
    shared.resultIndex ?? new ResultCache({ maxBytes: results.maxBytes, ttlMs: results.ttlMs }),
    cacheStorage(container.resolve<AudioStore>(TOKENS.audioStore), ownerRecording(config)),
    logger,
    {
      maxStreamBytes: Math.floor(results.maxBytes / 16),
      sharedFlight: shared.sharedFlight,
      answersStill: fallbackAnswersWhileNeeded(router, (model) => refusesRouteCalls(catalog, model)),
      lookedUp: (hit) => metrics.cacheLookup('results', hit),
      hitReadTimeoutMs: Math.min(HIT_READ_TIMEOUT_MS, config.synthesis.timeoutMs),
      timeoutMs: config.synthesis.timeoutMs,
    },
  );
  const lists = modelLists(catalog, router);
  const audioStore = container.resolve<AudioStore>(TOKENS.audioStore);
  const accounts = container.resolve<AccountService>(TOKENS.accounts);
  const stopSweeper = audioStore.startSweeper(config.storage.sweepIntervalMs);
  const stopKeySweeper = startKeySweeper(accounts, logger);
  const relisting = new BackgroundRelisting(catalog, { ...config.resilience.relisting, logger });
  relisting.start();
  const observers = {
    metrics,
    isServed: (model: string) => router.find(model) !== undefined || providerOfModel(catalog, model) !== undefined,
    providerOf: (model: string) => providerOfModel(catalog, model),
  };
  const app = createApp({
    config,
    logger,
    accounts,
    audioStore,
    ...lists,
    limiter: container.resolve<SynthesisLimiter>(TOKENS.limiter),
    loginThrottle: container.resolve<LoginThrottle>(TOKENS.loginThrottle),
    ...synthesisFunctions(cached, { cacheEnabled: results.enabled, sharedIndex: shared.resultIndex !== undefined, quota: storageQuota(config, audioStore), observers }),
    startedAt: Math.floor(Date.now() / 1000),
    metrics,
    readiness: {
      database: () => accounts.checkDatabase(),
      audioStore: () => audioStore.checkWritable(),
      providers: () => {
        // The catalog knows the live state: re-listing may have brought a provider back, its breaker may be open.
        // Open only while it refuses calls: once its trial is due the next call goes through, and an
        // unready replica gets no call from its balancer to move the circuit on.
        for (const instance of catalog.providers) {
          const refusing = instance.provider instanceof ResilientProvider && instance.provider.refusesCalls();
          providerHealth.setAvailable(instance.instanceId, instance.listingError === undefined && !refusing, instance.models.length);
        }
        return providerHealth.list();
      },
      stopping: () => stopping,
      warmingUp: () => warmingUp,
    },
  });
  const close = async (): Promise<void> => {
    shutdown.abort();
    await awaitWarmUps(warmedUp, logger, options.pluginTimeLimits);
    stopSweeper();
    stopKeySweeper();
    stopQueueGauge();
    relisting.stop();
    await Promise.allSettled([audioProcessor?.close(), closeProviders(providers, logger, options.pluginTimeLimits), pooled?.close()]);
    await accounts.flushActivity();
    await container.resolve<AccountStore>(TOKENS.accountStore).close?.();
    await shared.close();
    audioStorage.close();
  };
  logger.info('gateway composed', { providers: providers.map((loaded) => loaded.instanceId), models: catalog.listModels().length });

  return {
    app,
    config,
    logger,
    container,
    markStopping: () => {
      stopping = true;
    },
    warmedUp,
    close,
  };
}

/** Files are recorded against their account only where `limits.storageBytes` reads those records. */
function ownerRecording(config: GatewayConfig): { recordOwners: boolean } {
  return { recordOwners: config.limits.storageBytes !== undefined };
}

/** `limits.storageBytes` over the store's count of each account's bytes (the folder store keeps one). */
function storageQuota(config: GatewayConfig, store: AudioStore): StorageQuota | undefined {
  const limit = config.limits.storageBytes;
  if (limit === undefined) return undefined;
  if (!store.storedBytes) throw new Error('limits.storageBytes needs a store that counts stored bytes per account (storage.driver: filesystem)');
  return new StorageQuota({ storedBytes: (owner) => store.storedBytes!(owner) }, limit);
}

/** Routes from the config, then each alias as a route with one target. */
function routesOf(config: GatewayConfig): ModelRoute[] {
  return [
    ...config.routes.map((route) => ({ name: route.name, strategy: route.strategy, targets: route.targets })),
    ...config.aliases.map((alias) => ({ name: alias.model, strategy: 'fallback' as const, targets: [{ model: alias.target, voices: alias.voices }] })),
  ];
}

/** Wraps a provider in its retry and breaker policy (the entry's own, else `resilience:`). */
function withResilience(loaded: LoadedProvider, config: GatewayConfig, logger: Logger, metrics: Metrics, health: ProviderHealth): LoadedProvider {
  const entry = config.providers.find((candidate) => candidate.configPath === loaded.configPath);
  const provider = new ResilientProvider(loaded.provider, {
    instanceId: loaded.instanceId,
    policy: entry?.resilience ?? config.resilience,
    logger,
    defaultTimeoutMs: config.synthesis.timeoutMs,
    metrics,
    onFailure: (error) => recordProviderFailure(health, loaded.instanceId, error),
  });
  return { ...loaded, provider };
}

function registerStorage(container: DependencyContainer, config: GatewayConfig, logger: Logger, accountStore: AccountStore, audioStore: AudioStore, shared: SharedState): void {
  container.register(TOKENS.accountStore, { useValue: accountStore });
  container.register(TOKENS.accounts, {
    useFactory: instanceCachingFactory(
      (scope) =>
        new AccountService(scope.resolve<AccountStore>(TOKENS.accountStore), {
          registration: config.auth.registration,
          loginKeyTtlMs: config.auth.loginKeyTtlMs,
          maxKeysPerAccount: config.auth.maxKeysPerAccount,
          keyCacheTtlMs: shared.keyCacheTtlMs,
          revocations: shared.revocations,
          activityFlushMs: ACTIVITY_FLUSH_MS,
          lastUseResolutionMs: LAST_USE_RESOLUTION_MS,
          onActivityError: (error) => logger.warn('key use and usage rows not written yet; retrying', { error: error instanceof Error ? error.message : String(error) }),
        }),
    ),
  });
  container.register(TOKENS.audioStore, { useValue: audioStore });
  // With Redis the replicas count together; else in this process's memory.
  container.register(TOKENS.windowCounters, { useFactory: instanceCachingFactory(() => shared.counters ?? new MemoryWindowCounters()) });
  container.register(TOKENS.limiter, {
    useFactory: instanceCachingFactory((scope) => {
      const store = scope.resolve<AccountStore>(TOKENS.accountStore);
      return new SynthesisLimiter({
        limits: config.limits,
        counters: scope.resolve<WindowCounters>(TOKENS.windowCounters),
        accountLimits: cachedAccountLimits((accountId) => store.getAccountLimits(accountId), ACCOUNT_LIMITS_TTL_MS),
        // A daily counter opens with what the database holds for the day: a restart gives no quota again.
        storedCharacters: (accountId, fromMs, toMs) => store.charactersByKey(accountId, fromMs, toMs),
      });
    }),
  });
  container.register(TOKENS.loginThrottle, {
    useFactory: instanceCachingFactory((scope) => new LoginThrottle({ ...config.auth.throttle, counters: scope.resolve<WindowCounters>(TOKENS.windowCounters) })),
  });
}
