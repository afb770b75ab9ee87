import type { SchemaObject } from 'ajv';
import { DEFAULT_ALIASES } from './default-aliases';

/**
 * JSON Schema of the configuration file as people write it (units as text, `${VAR}` already
 * interpolated). Defaults live here, so a zero-config start and a partial file fill in the same
 * way. Durations and sizes use the custom formats `duration` and `byte-size` (config/units.ts).
 */

const duration = (defaultValue: string): SchemaObject => ({
  type: ['string', 'integer'],
  format: 'duration',
  minimum: 0,
  default: defaultValue,
});

const byteSize = (defaultValue?: string): SchemaObject => ({
  type: ['string', 'integer'],
  format: 'byte-size',
  minimum: 0,
  ...(defaultValue === undefined ? {} : { default: defaultValue }),
});

const section = (properties: Record<string, SchemaObject>, required: string[] = []): SchemaObject => ({
  type: 'object',
  additionalProperties: false,
  properties,
  required,
  default: {},
});

const count = (minimum: number, maximum: number, defaultValue?: number): SchemaObject => ({
  type: 'integer',
  minimum,
  maximum,
  ...(defaultValue === undefined ? {} : { default: defaultValue }),
});

/** Retry and breaker settings; `withDefaults` false for a provider's override (absent = inherit). */
const resiliencePolicy = (withDefaults: boolean): Record<string, SchemaObject> => {
  const maybe = (schema: SchemaObject): SchemaObject => {
    if (withDefaults) return schema;
    const { default: _ignored, ...rest } = schema;
    return rest;
  };
  return {
    retries: maybe(count(0, 10, 2)),
    backoff: maybe(duration('200ms')),
    maxBackoff: maybe(duration('5s')),
    breaker: maybe(section({ failures: maybe(count(0, 10_000, 5)), halfOpenAfter: maybe(duration('30s')) })),
  };
};

/** Requests per minute and characters per day; absent = no limit. */
const limitValues = (): Record<string, SchemaObject> => ({
  requestsPerMinute: count(1, 1_000_000),
  charactersPerDay: count(1, 1_000_000_000),
});

const providerEntry: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['plugin'],
  properties: {
    plugin: { type: 'string', minLength: 1 },
    id: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' },
    options: { type: 'object' },
    models: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
    rename: { type: 'object', additionalProperties: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._:~-]*$' } },
    resilience: { type: 'object', additionalProperties: false, properties: resiliencePolicy(false) },
    // The largest answer read from this provider; past it the call fails with 502 at once.
    maxResponseBytes: byteSize('256mb'),
    ifEnv: {
      type: ['string', 'array'],
      pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
      items: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
      minItems: 1,
    },
  },
};

const modelName = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._:~-]*$', maxLength: 200 };

/** A model name served by another model, with its own voice names. */
const aliasEntry: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['model', 'target'],
  properties: {
    model: modelName,
    target: modelName,
    voices: { type: 'object', additionalProperties: { type: 'string', minLength: 1, maxLength: 200 }, default: {} },
  },
};

/** A virtual model: its targets in order (fallback) or drawn by weight (loadbalance). */
const routeEntry: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'targets'],
  properties: {
    name: modelName,
    strategy: { enum: ['fallback', 'loadbalance'], default: 'fallback' },
    targets: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['model'],
        properties: {
          model: modelName,
          voices: { type: 'object', additionalProperties: { type: 'string', minLength: 1, maxLength: 200 }, default: {} },
          weight: { type: 'number', exclusiveMinimum: 0, default: 1 },
        },
      },
    },
  },
};

export const CONFIG_FILE_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  properties: {
    server: section({
      port: { type: 'integer', minimum: 0, maximum: 65535, default: 8080 },
      host: { type: 'string', minLength: 1, default: '0.0.0.0' },
      publicBaseUrl: { type: 'string', format: 'uri', pattern: '^https?://' },
      bodyLimit: { type: ['string', 'integer'], format: 'byte-size', minimum: 0, default: '256kb' },
      trustProxy: { type: 'boolean', default: false },
      cors: section({
        // '*' (any origin) or a list of origins; none by default (no CORS headers at all).
        origins: {
          type: ['string', 'array'],
          format: 'cors-any-origin',
          items: { type: 'string', format: 'origin' },
          uniqueItems: true,
          default: [],
        },
      }),
      // Open connections at most; more are closed at once (idle ones time out below).
      maxConnections: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 4096 },
      // Time a client has to send its request headers, and its whole request (body included).
      headersTimeout: duration('10s'),
      requestTimeout: duration('30s'),
      // How long an idle keep-alive connection stays open after an answer.
      keepAliveTimeout: duration('5s'),
    }),
    storage: section({
      driver: { enum: ['filesystem', 's3'], default: 'filesystem' },
      // Used when driver is s3; keys absent = the standard AWS credential chain.
      s3: {
        type: 'object',
        additionalProperties: false,
        required: ['bucket'],
        properties: {
          bucket: { type: 'string', minLength: 3, maxLength: 63 },
          endpoint: { type: 'string', format: 'uri', pattern: '^https?://' },
          region: { type: 'string', minLength: 1 },
          forcePathStyle: { type: 'boolean', default: false },
          prefix: { type: 'string', pattern: '^([A-Za-z0-9._-]+/)*$', default: '' },
          accessKeyId: { type: 'string', minLength: 1 },
          secretAccessKey: { type: 'string', minLength: 1 },
        },
      },
      path: { type: 'string', minLength: 1, default: './data/audio' },
      retention: duration('24h'),
      sweepInterval: duration('10m'),
      downloadRequiresKey: { type: 'boolean', default: false },
    }),
    database: section({
      url: { type: 'string', pattern: '^(sqlite:.+|postgres(ql)?://.+)', default: 'sqlite:./data/gateway.db' },
    }),
    // Shared state of several replicas: key revocations (and limits); absent = this process only.
    redis: section({
      url: { type: 'string', pattern: '^rediss?://.+' },
      keyPrefix: { type: 'string', pattern: '^[A-Za-z0-9:._-]*$', default: 'ttsg:' },
    }),
    auth: section({
      registration: { enum: ['open', 'closed'], default: 'open' },
      loginKeyTtl: duration('30d'),
      throttle: section({
        failures: count(1, 10_000, 5),
        addressFailures: count(1, 100_000, 20),
        window: duration('15m'),
      }),
    }),
    resilience: section({
      ...resiliencePolicy(true),
      relisting: section({ initialDelay: duration('5s'), maxDelay: duration('5m') }),
    }),
    limits: section({
      ...limitValues(),
      perKey: section(limitValues()),
      // Bytes of audio files one account may have stored (until they expire); checked before synthesis.
      storageBytes: byteSize(),
    }),
    cache: section({
      catalogTtl: duration('10m'),
      // Identical requests answered from stored audio; the ttl defaults to storage.retention.
      results: section({
        enabled: { type: 'boolean', default: true },
        maxBytes: { type: ['string', 'integer'], format: 'byte-size', minimum: 0, default: '512mb' },
        ttl: { type: ['string', 'integer'], format: 'duration', minimum: 0 },
      }),
    }),
    synthesis: section({
      timeout: duration('60s'),
      chunkConcurrency: { type: 'integer', minimum: 1, maximum: 64, default: 4 },
      audioWorkers: { type: 'integer', minimum: 1, maximum: 256 },
      // No synthesis makes more audio than this: refused up front or stopped early (413).
      maxAudioDuration: duration('30m'),
      // Audio jobs waiting for a worker at most; default: audio workers x seconds of timeout.
      maxQueuedTasks: { type: 'integer', minimum: 1, maximum: 1_000_000 },
    }),
    audio: section({
      // Without it, ffmpeg is looked up on PATH; it is needed only for aac output.
      ffmpegPath: { type: 'string', minLength: 1 },
    }),
    aliases: { type: 'array', items: aliasEntry, default: DEFAULT_ALIASES },
    routes: { type: 'array', items: routeEntry, default: [] },
    metrics: section({
      enabled: { type: 'boolean', default: true },
      // When set, GET /metrics needs `Authorization: Bearer <token>`.
      token: { type: 'string', minLength: 1 },
    }),
    logging: section({
      level: { enum: ['error', 'warn', 'info', 'debug'], default: 'info' },
      // No default here: JSON lines when NODE_ENV=production, readable lines otherwise (normalize-config).
      format: { enum: ['json', 'pretty'] },
    }),
    providers: {
      type: 'array',
      minItems: 1,
      items: providerEntry,
      default: [{ plugin: 'espeak' }],
    },
  },
};
