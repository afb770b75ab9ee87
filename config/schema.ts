import type { JSONSchema } from 'json-schema-to-ts';
import { DEFAULT_ALIASES } from './default-aliases';

/**
 * JSON Schema of the configuration file as people write it (units as text, `${VAR}` already
 * interpolated). Defaults live here, so a zero-config start and a partial file fill in the same
 * way. Durations and sizes use the custom formats `duration` and `byte-size` (config/units.ts).
 * Written `as const`: the file's type is read off it (config-file.ts), so the two cannot drift.
 */

type Schema = Exclude<JSONSchema, boolean>;

const duration = <const Default extends string>(defaultValue: Default) =>
  ({ type: ['string', 'integer'], format: 'duration', minimum: 0, default: defaultValue }) as const;

const byteSize = <const Default extends string>(defaultValue: Default) =>
  ({ type: ['string', 'integer'], format: 'byte-size', minimum: 0, default: defaultValue }) as const;

/** A size with no default: absent means no limit. */
const optionalByteSize = () => ({ type: ['string', 'integer'], format: 'byte-size', minimum: 0 }) as const;

const section = <const Properties extends Readonly<Record<string, Schema>>>(properties: Properties) =>
  ({ type: 'object', additionalProperties: false, properties, required: [], default: {} }) as const;

const count = <const Minimum extends number, const Maximum extends number>(minimum: Minimum, maximum: Maximum) =>
  ({ type: 'integer', minimum, maximum }) as const;

const countWithDefault = <const Minimum extends number, const Maximum extends number, const Default extends number>(minimum: Minimum, maximum: Maximum, defaultValue: Default) =>
  ({ type: 'integer', minimum, maximum, default: defaultValue }) as const;

/** The same schema without its default: a provider's override, where absent means "inherit". */
function withoutDefault<const Entry extends Schema>(schema: Entry): Omit<Entry, 'default'> {
  const { default: _ignored, ...rest } = schema;
  return rest;
}

/** Retry and breaker settings with their defaults (the `resilience:` section). */
const resiliencePolicy = () =>
  ({
    retries: countWithDefault(0, 10, 2),
    backoff: duration('200ms'),
    maxBackoff: duration('5s'),
    breaker: section({ failures: countWithDefault(0, 10_000, 5), halfOpenAfter: duration('30s') }),
  }) as const;

/** A provider's own retry and breaker settings: every field absent = the `resilience:` default. */
const resilienceOverride = () =>
  ({
    retries: withoutDefault(countWithDefault(0, 10, 2)),
    backoff: withoutDefault(duration('200ms')),
    maxBackoff: withoutDefault(duration('5s')),
    breaker: withoutDefault(section({ failures: withoutDefault(countWithDefault(0, 10_000, 5)), halfOpenAfter: withoutDefault(duration('30s')) })),
  }) as const;

/** Requests per minute and characters per day; absent = no limit. */
const limitValues = () =>
  ({
    requestsPerMinute: count(1, 1_000_000),
    charactersPerDay: count(1, 1_000_000_000),
  }) as const;

const providerEntry = {
  type: 'object',
  additionalProperties: false,
  required: ['plugin'],
  properties: {
    plugin: { type: 'string', minLength: 1 },
    id: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' },
    options: { type: 'object' },
    models: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
    rename: { type: 'object', additionalProperties: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._:~-]*$' } },
    resilience: { type: 'object', additionalProperties: false, properties: resilienceOverride() },
    // The largest answer read from this provider; past it the call fails with 502 at once.
    maxResponseBytes: byteSize('256mb'),
    ifEnv: {
      type: ['string', 'array'],
      pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
      items: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
      minItems: 1,
    },
  },
} as const satisfies Schema;

const modelName = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._:~-]*$', maxLength: 200 } as const;

/** A model name served by another model, with its own voice names. */
const aliasEntry = {
  type: 'object',
  additionalProperties: false,
  required: ['model', 'target'],
  properties: {
    model: modelName,
    target: modelName,
    voices: { type: 'object', additionalProperties: { type: 'string', minLength: 1, maxLength: 200 }, default: {} },
  },
} as const satisfies Schema;

/** A virtual model: its targets in order (fallback) or drawn by weight (loadbalance). */
const routeEntry = {
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
} as const satisfies Schema;

export const CONFIG_FILE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    server: section({
      port: { type: 'integer', minimum: 0, maximum: 65535, default: 8080 },
      host: { type: 'string', minLength: 1, default: '0.0.0.0' },
      publicBaseUrl: { type: 'string', format: 'uri', pattern: '^https?://' },
      bodyLimit: { type: ['string', 'integer'], format: 'byte-size', minimum: 0, default: '256kb' },
      // false, the number of proxies in front, or their addresses (config/trusted-proxies.ts).
      trustProxy: {
        type: ['boolean', 'integer', 'string', 'array'],
        minimum: 1,
        maximum: 999,
        format: 'trusted-proxies',
        items: { type: 'string', format: 'proxy-address' },
        minItems: 1,
        default: false,
      },
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
          // Each S3 request's time to connect, and to be answered (its headers; a PUT's upload included).
          connectionTimeout: duration('5s'),
          requestTimeout: duration('30s'),
        },
      },
      path: { type: 'string', minLength: 1, default: './data/audio' },
      retention: duration('24h'),
      sweepInterval: duration('10m'),
      // A download's wait for the store to find its file and start sending it (not the transfer).
      readTimeout: duration('5s'),
      downloadRequiresKey: { type: 'boolean', default: false },
    }),
    database: section({
      url: { type: 'string', pattern: '^(sqlite:.+|postgres(ql)?://.+)', default: 'sqlite:./data/gateway.db' },
      // PostgreSQL: the longest one statement of a request may run (a lock wait included); migrations have none.
      statementTimeout: duration('5s'),
    }),
    // Shared state of several replicas: key revocations (and limits); absent = this process only.
    redis: section({
      url: { type: 'string', pattern: '^rediss?://.+' },
      keyPrefix: { type: 'string', pattern: '^[A-Za-z0-9:._-]*$', default: 'ttsg:' },
    }),
    auth: section({
      registration: { enum: ['open', 'closed'], default: 'open' },
      loginKeyTtl: duration('30d'),
      // Live keys one account may hold: POST /auth/keys is refused at it, a login replaces the oldest login key.
      maxKeysPerAccount: countWithDefault(1, 100_000, 100),
      throttle: section({
        failures: countWithDefault(1, 10_000, 5),
        addressFailures: countWithDefault(1, 100_000, 20),
        // Accounts one client address may register in a window (successful ones: failures are counted above).
        addressRegistrations: countWithDefault(1, 100_000, 10),
        window: duration('15m'),
      }),
    }),
    resilience: section({
      ...resiliencePolicy(),
      relisting: section({ initialDelay: duration('5s'), maxDelay: duration('5m') }),
    }),
    limits: section({
      ...limitValues(),
      perKey: section(limitValues()),
      // Bytes of audio files one account may have stored (until they expire); checked before synthesis.
      storageBytes: optionalByteSize(),
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
      token: { type: 'string', minLength: 1, format: 'bearer-token' },
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
} as const satisfies Schema;
