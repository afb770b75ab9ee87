import { ConfigError } from './config-error';
import type { ConfigFile, LimitValuesFile, ProviderEntryFile, ResiliencePolicyFile, S3StorageFile } from './config-file';
import type { Environment } from './interpolate';
import { ifEnvNames } from './provider-conditions';
import type { GatewayConfig, LimitValues, ProviderEntry, ResilienceConfig, ResiliencePolicy, S3StorageConfig, SkippedProvider } from './types';
import { parseByteSize, parseDuration } from './units';
import { trustedProxies } from './trusted-proxies';
import { urlSettingProblems } from './url-settings';

/** Converts the validated file (units as text) into GatewayConfig (milliseconds and bytes). */

export interface NormalizeInput {
  readonly file: ConfigFile;
  readonly sourceFile?: string;
  readonly baseDirectory: string;
  readonly env: Environment;
  /** Index in `providers` -> unset `ifEnv` variables. */
  readonly skipped: ReadonlyMap<number, readonly string[]>;
}

// Node runs a timer longer than 2^31-1 ms (24.8 days) after 1 ms; 24 days leaves room for the drain grace.
const MAX_TIMER_MS = 24 * 86_400_000;

class Problems {
  readonly lines: string[] = [];

  /** A duration that sets a timer (setTimeout, setInterval, socket timeouts). */
  private timer(milliseconds: number, path: string): number {
    if (milliseconds > MAX_TIMER_MS) this.lines.push(`${path}: must be at most 24d (a longer timer would fire at once)`);
    return milliseconds;
  }

  positiveTimer(value: string | number, path: string): number {
    return this.timer(this.positiveMilliseconds(value, path), path);
  }

  nonNegativeTimer(value: string | number, path: string): number {
    return this.timer(this.nonNegativeMilliseconds(value, path), path);
  }

  positiveMilliseconds(value: string | number, path: string): number {
    const milliseconds = parseDuration(value) ?? 0;
    if (milliseconds <= 0) this.lines.push(`${path}: must be a duration greater than zero`);
    return milliseconds;
  }

  nonNegativeMilliseconds(value: string | number, path: string): number {
    const milliseconds = parseDuration(value);
    if (milliseconds === undefined || milliseconds < 0) this.lines.push(`${path}: must be a duration`);
    return milliseconds ?? 0;
  }

  positiveBytes(value: string | number, path: string): number {
    const bytes = parseByteSize(value) ?? 0;
    if (bytes <= 0) this.lines.push(`${path}: must be a size greater than zero`);
    return bytes;
  }
}

function portFromEnv(env: Environment, fallback: number): number {
  const text = env.PORT;
  if (text === undefined || text === '') return fallback;
  const port = /^\d{1,5}$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) throw new ConfigError(`Environment variable PORT must be an integer between 0 and 65535 (found "${text.slice(0, 20)}")`);
  return port;
}

/** PUBLIC_BASE_URL, else the file's value (which urlSettingProblems checks, naming server.publicBaseUrl). */
function publicBaseUrl(env: Environment, fromFile: string | undefined): string | undefined {
  const text = env.PUBLIC_BASE_URL || fromFile;
  if (text === undefined) return undefined;
  if (!env.PUBLIC_BASE_URL) return text.replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError('Environment variable PUBLIC_BASE_URL must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError('PUBLIC_BASE_URL must start with http:// or https://');
  return text.replace(/\/+$/, '');
}

function resiliencePolicy(file: ResiliencePolicyFile, defaults: ResiliencePolicy, path: string, problems: Problems): ResiliencePolicy {
  const policy: ResiliencePolicy = {
    retries: file.retries ?? defaults.retries,
    backoffMs: file.backoff === undefined ? defaults.backoffMs : problems.nonNegativeTimer(file.backoff, `${path}.backoff`),
    maxBackoffMs: file.maxBackoff === undefined ? defaults.maxBackoffMs : problems.nonNegativeTimer(file.maxBackoff, `${path}.maxBackoff`),
    breaker: {
      failures: file.breaker?.failures ?? defaults.breaker.failures,
      halfOpenAfterMs:
        file.breaker?.halfOpenAfter === undefined ? defaults.breaker.halfOpenAfterMs : problems.positiveMilliseconds(file.breaker.halfOpenAfter, `${path}.breaker.halfOpenAfter`),
    },
  };
  if (policy.maxBackoffMs < policy.backoffMs) problems.lines.push(`${path}.maxBackoff: must not be shorter than backoff`);
  // Full jitter of a zero base is zero: every retry would follow its failure at once, hammering a struggling provider.
  if (policy.retries > 0 && policy.backoffMs === 0) {
    problems.lines.push(`${path}.backoff: must be a duration greater than zero while retries are on (a zero backoff retries a failing provider at once); set retries: 0 to turn retries off`);
  }
  return policy;
}

function resilienceConfig(file: ConfigFile['resilience'], problems: Problems): ResilienceConfig {
  const zero: ResiliencePolicy = { retries: 0, backoffMs: 0, maxBackoffMs: 0, breaker: { failures: 0, halfOpenAfterMs: 0 } };
  const policy = resiliencePolicy(file, zero, 'resilience', problems);
  const relisting = {
    initialDelayMs: problems.positiveTimer(file.relisting.initialDelay, 'resilience.relisting.initialDelay'),
    maxDelayMs: problems.positiveTimer(file.relisting.maxDelay, 'resilience.relisting.maxDelay'),
  };
  if (relisting.maxDelayMs < relisting.initialDelayMs) problems.lines.push('resilience.relisting.maxDelay: must not be shorter than initialDelay');
  return { ...policy, relisting };
}

function limitValues(file: LimitValuesFile): LimitValues {
  return {
    ...(file.requestsPerMinute !== undefined && { requestsPerMinute: file.requestsPerMinute }),
    ...(file.charactersPerDay !== undefined && { charactersPerDay: file.charactersPerDay }),
  };
}

function providerEntry(entry: ProviderEntryFile, configPath: string, defaults: ResiliencePolicy, problems: Problems): ProviderEntry {
  const ifEnv = ifEnvNames(entry.ifEnv);
  return {
    plugin: entry.plugin,
    configPath,
    maxResponseBytes: problems.positiveBytes(entry.maxResponseBytes, `${configPath}.maxResponseBytes`),
    ...(entry.id !== undefined && { id: entry.id }),
    ...(entry.options !== undefined && { options: entry.options }),
    ...(entry.models !== undefined && { models: entry.models }),
    ...(entry.rename !== undefined && { rename: entry.rename }),
    ...(ifEnv.length > 0 && { ifEnv }),
    ...(entry.resilience !== undefined && { resilience: resiliencePolicy(entry.resilience, defaults, `${configPath}.resilience`, problems) }),
  };
}

function s3Storage(s3: S3StorageFile | undefined, problems: Problems): S3StorageConfig | undefined {
  if (!s3) {
    problems.lines.push('storage.s3: is required when storage.driver is s3 (at least storage.s3.bucket)');
    return undefined;
  }
  if ((s3.accessKeyId === undefined) !== (s3.secretAccessKey === undefined)) {
    problems.lines.push('storage.s3: set both accessKeyId and secretAccessKey, or neither (to use the AWS credential chain)');
  }
  return {
    bucket: s3.bucket,
    forcePathStyle: s3.forcePathStyle,
    prefix: s3.prefix,
    connectionTimeoutMs: problems.positiveTimer(s3.connectionTimeout, 'storage.s3.connectionTimeout'),
    requestTimeoutMs: problems.positiveTimer(s3.requestTimeout, 'storage.s3.requestTimeout'),
    ...(s3.endpoint !== undefined && { endpoint: s3.endpoint }),
    ...(s3.region !== undefined && { region: s3.region }),
    ...(s3.accessKeyId !== undefined && s3.secretAccessKey !== undefined && { credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } }),
  };
}

/** A name given twice (the router would keep the first without a word) and a route targeting itself. */
function routeProblems(file: ConfigFile, problems: Problems): void {
  const duplicates = (section: string, key: string, names: readonly string[]) =>
    names.forEach((name, index) => {
      const earlier = names.indexOf(name);
      if (earlier < index) problems.lines.push(`${section}[${index}].${key}: "${name}" is already the name of ${section}[${earlier}]`);
    });
  duplicates('routes', 'name', file.routes.map((route) => route.name));
  duplicates('aliases', 'model', file.aliases.map((alias) => alias.model));
  file.routes.forEach((route, index) =>
    route.targets.forEach((target, targetIndex) => {
      if (target.model === route.name) problems.lines.push(`routes[${index}].targets[${targetIndex}].model: a route cannot target itself ("${route.name}")`);
    }),
  );
}

export function normalizeConfig({ file, sourceFile, baseDirectory, env, skipped }: NormalizeInput): GatewayConfig {
  const problems = new Problems();
  const resilience = resilienceConfig(file.resilience, problems);
  const providers: ProviderEntry[] = [];
  const skippedProviders: SkippedProvider[] = [];
  file.providers.forEach((entry, index) => {
    const configPath = `providers[${index}]`;
    const missingVariables = skipped.get(index);
    if (missingVariables) skippedProviders.push({ plugin: entry.plugin, id: entry.id, configPath, missingVariables });
    else providers.push(providerEntry(entry, configPath, resilience, problems));
  });
  if (providers.length === 0) {
    const names = [...new Set(skippedProviders.flatMap((entry) => entry.missingVariables))];
    problems.lines.push(`providers: every provider was skipped; set at least one of ${names.join(', ')}`);
  }

  const config: GatewayConfig = {
    server: {
      port: portFromEnv(env, file.server.port),
      host: file.server.host,
      publicBaseUrl: publicBaseUrl(env, file.server.publicBaseUrl),
      bodyLimitBytes: problems.positiveBytes(file.server.bodyLimit, 'server.bodyLimit'),
      trustProxy: trustedProxies(file.server.trustProxy),
      cors: { origins: file.server.cors.origins },
      maxConnections: file.server.maxConnections,
      headersTimeoutMs: problems.positiveTimer(file.server.headersTimeout, 'server.headersTimeout'),
      requestTimeoutMs: problems.positiveTimer(file.server.requestTimeout, 'server.requestTimeout'),
      keepAliveTimeoutMs: problems.positiveTimer(file.server.keepAliveTimeout, 'server.keepAliveTimeout'),
    },
    storage: {
      driver: file.storage.driver,
      path: file.storage.path,
      ...(file.storage.driver === 's3' && { s3: s3Storage(file.storage.s3, problems) }),
      retentionMs: problems.positiveMilliseconds(file.storage.retention, 'storage.retention'),
      sweepIntervalMs: problems.positiveTimer(file.storage.sweepInterval, 'storage.sweepInterval'),
      readTimeoutMs: problems.positiveTimer(file.storage.readTimeout, 'storage.readTimeout'),
      downloadRequiresKey: file.storage.downloadRequiresKey,
    },
    database: { url: file.database.url, statementTimeoutMs: problems.positiveTimer(file.database.statementTimeout, 'database.statementTimeout') },
    ...(file.redis.url !== undefined && { redis: { url: file.redis.url, keyPrefix: file.redis.keyPrefix } }),
    auth: {
      registration: file.auth.registration,
      loginKeyTtlMs: problems.positiveMilliseconds(file.auth.loginKeyTtl, 'auth.loginKeyTtl'),
      maxKeysPerAccount: file.auth.maxKeysPerAccount,
      throttle: {
        failures: file.auth.throttle.failures,
        addressFailures: file.auth.throttle.addressFailures,
        addressRegistrations: file.auth.throttle.addressRegistrations,
        windowMs: problems.positiveMilliseconds(file.auth.throttle.window, 'auth.throttle.window'),
      },
    },
    resilience,
    limits: {
      ...limitValues(file.limits),
      perKey: limitValues(file.limits.perKey),
      ...(file.limits.storageBytes !== undefined && { storageBytes: problems.positiveBytes(file.limits.storageBytes, 'limits.storageBytes') }),
    },
    cache: {
      catalogTtlMs: problems.positiveMilliseconds(file.cache.catalogTtl, 'cache.catalogTtl'),
      results: {
        enabled: file.cache.results.enabled,
        maxBytes: problems.positiveBytes(file.cache.results.maxBytes, 'cache.results.maxBytes'),
        ttlMs: problems.positiveMilliseconds(file.cache.results.ttl ?? file.storage.retention, 'cache.results.ttl'),
      },
    },
    synthesis: {
      timeoutMs: problems.positiveTimer(file.synthesis.timeout, 'synthesis.timeout'),
      chunkConcurrency: file.synthesis.chunkConcurrency,
      ...(file.synthesis.audioWorkers !== undefined && { audioWorkers: file.synthesis.audioWorkers }),
      maxAudioDurationMs: problems.positiveMilliseconds(file.synthesis.maxAudioDuration, 'synthesis.maxAudioDuration'),
      ...(file.synthesis.maxQueuedTasks !== undefined && { maxQueuedTasks: file.synthesis.maxQueuedTasks }),
    },
    audio: { ...(file.audio.ffmpegPath !== undefined && { ffmpegPath: file.audio.ffmpegPath }) },
    aliases: file.aliases.map((alias) => ({ model: alias.model, target: alias.target, voices: alias.voices })),
    routes: file.routes.map((route) => ({ name: route.name, strategy: route.strategy, targets: route.targets.map((target) => ({ ...target })) })),
    metrics: { enabled: file.metrics.enabled, ...(file.metrics.token !== undefined && { token: file.metrics.token }) },
    logging: { level: file.logging.level, format: file.logging.format ?? (env.NODE_ENV === 'production' ? 'json' : 'pretty') },
    providers,
    sourceFile,
    baseDirectory,
    skippedProviders,
  };
  routeProblems(file, problems);
  problems.lines.push(...urlSettingProblems(file));
  if (config.server.headersTimeoutMs > config.server.requestTimeoutMs) {
    problems.lines.push('server.headersTimeout: must not be longer than server.requestTimeout (the headers are part of the request)');
  }
  // Settings of a store not in use are a contradiction, not a choice: who wrote a bucket expects it used.
  if (file.storage.s3 !== undefined && file.storage.driver !== 's3') {
    problems.lines.push('storage.s3: is set, but storage.driver is filesystem (its default): set storage.driver: s3 to store in the bucket, or remove storage.s3');
  }
  if (config.limits.storageBytes !== undefined && config.storage.driver === 's3') {
    problems.lines.push('limits.storageBytes: needs storage.driver filesystem (the S3 store does not count stored bytes per account)');
  }
  if (problems.lines.length > 0) throw new ConfigError('Invalid configuration', problems.lines, sourceFile);
  return config;
}
