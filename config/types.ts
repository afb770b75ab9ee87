import type { ConfigFile } from './config-file';
import type { TrustedProxies } from './trusted-proxies';

/**
 * The validated, frozen configuration the gateway runs with: the file (its type read off the
 * schema) with units converted to milliseconds and bytes. Choices (enums) take their values from
 * the file type; schema-coverage.ts checks field by field that this and the schema agree.
 */
export interface GatewayConfig {
  readonly server: ServerConfig;
  readonly storage: StorageConfig;
  readonly database: DatabaseConfig;
  /** Absent: no Redis, the embedded single-process mode. */
  readonly redis?: RedisConfig;
  readonly auth: AuthConfig;
  readonly resilience: ResilienceConfig;
  readonly limits: LimitsConfig;
  readonly cache: CacheConfig;
  readonly synthesis: SynthesisConfig;
  readonly audio: AudioConfig;
  /** Model names served by other models (OpenAI's names by default). */
  readonly aliases: readonly ModelAliasConfig[];
  /** Virtual models with fallback or load-balanced targets. */
  readonly routes: readonly RouteConfig[];
  readonly metrics: MetricsConfig;
  readonly logging: LoggingConfig;
  readonly providers: readonly ProviderEntry[];
  /** The file the config came from, or undefined for the zero-config defaults. */
  readonly sourceFile?: string;
  /** Folder that plugin paths (`./my-plugin.js`) are relative to: the config file's, else the working directory. */
  readonly baseDirectory: string;
  /** Providers left out because an `ifEnv` variable is unset (the start logs them). */
  readonly skippedProviders: readonly SkippedProvider[];
}

/** A provider entry left out of this start because its `ifEnv` variables are not all set. */
export interface SkippedProvider {
  readonly plugin: string;
  readonly id?: string;
  /** Where the entry is in the file: `providers[2]`. */
  readonly configPath: string;
  /** The unset (or empty) variables. */
  readonly missingVariables: readonly string[];
}

export interface ServerConfig {
  readonly port: number;
  readonly host: string;
  /** Base of the `audio_url` links; without it, the origin the request came in on. */
  readonly publicBaseUrl?: string;
  /** Largest JSON body, in bytes. */
  readonly bodyLimitBytes: number;
  /** Which proxies' X-Forwarded-* are believed: none, how many, or which (config/trusted-proxies.ts). */
  readonly trustProxy: TrustedProxies;
  readonly cors: CorsConfig;
  /** Open connections at most; more are closed at once. */
  readonly maxConnections: number;
  /** Time a client has to send its request headers, in milliseconds. */
  readonly headersTimeoutMs: number;
  /** Time a client has to send its whole request, body included, in milliseconds. */
  readonly requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open after an answer, in milliseconds. */
  readonly keepAliveTimeoutMs: number;
}

export interface CorsConfig {
  /** Browser origins allowed to call the API: `*`, a list (exact matches), or none (no CORS headers). */
  readonly origins: ConfigFile['server']['cors']['origins'] | readonly string[];
}

export interface MetricsConfig {
  /** Serve GET /metrics (Prometheus text format). */
  readonly enabled: boolean;
  /** When set, GET /metrics needs `Authorization: Bearer <token>`. */
  readonly token?: string;
}

export interface StorageConfig {
  readonly driver: ConfigFile['storage']['driver'];
  /** The folder of the filesystem driver. */
  readonly path: string;
  /** Set when the driver is s3. */
  readonly s3?: S3StorageConfig;
  /** How long a generated file stays downloadable, in milliseconds. */
  readonly retentionMs: number;
  /** How often expired files are swept, in milliseconds. */
  readonly sweepIntervalMs: number;
  /** How long a download may wait for the store to find its file and start sending it (not the transfer), in milliseconds. */
  readonly readTimeoutMs: number;
  /** When true, downloads need X-API-Key too; by default the unguessable link is the capability. */
  readonly downloadRequiresKey: boolean;
}

/** An S3-compatible bucket (AWS S3, MinIO, Ceph, R2). */
export interface S3StorageConfig {
  readonly bucket: string;
  /** Omit for AWS itself. */
  readonly endpoint?: string;
  /** Defaults to AWS_REGION, else us-east-1. */
  readonly region?: string;
  /** Bucket in the path (MinIO and most self-hosted servers) rather than in the host name. */
  readonly forcePathStyle: boolean;
  /** Prefix of every object key, `audio/` for instance; empty by default. */
  readonly prefix: string;
  /** Both or neither: without them, the standard AWS credential chain (environment, profile, instance role). */
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
  /** How long one S3 request may take to connect, in milliseconds. */
  readonly connectionTimeoutMs: number;
  /** How long one S3 request may take to be answered (the answer's headers; a PUT's upload included), in milliseconds. */
  readonly requestTimeoutMs: number;
}

/** Redis shared by the replicas. */
export interface RedisConfig {
  /** `redis://[user:password@]host:port[/db]` or `rediss://` for TLS. */
  readonly url: string;
  /** Prefix of every key and channel, so that several gateways can share one Redis. */
  readonly keyPrefix: string;
}

export interface DatabaseConfig {
  /** `sqlite:<path>`, `sqlite::memory:` or `postgres://user:password@host:port/database` (also `postgresql://`). */
  readonly url: string;
  /**
   * PostgreSQL: the longest one statement may run, lock waits included, in milliseconds (then
   * 503); a server that stops answering is given a second more. Migrations are not limited.
   */
  readonly statementTimeoutMs: number;
}

export interface AuthConfig {
  readonly registration: ConfigFile['auth']['registration'];
  /** Lifetime of a key issued by login, in milliseconds. */
  readonly loginKeyTtlMs: number;
  /** Live keys one account may hold (then POST /auth/keys is 409; a login revokes the oldest login key). */
  readonly maxKeysPerAccount: number;
  readonly throttle: AuthThrottleConfig;
}

/** Failed logins and registrations, and registrations at all per client address, tolerated in a window before 429. */
export interface AuthThrottleConfig {
  /** Failures per email address. */
  readonly failures: number;
  /** Failures per client address (all emails together). */
  readonly addressFailures: number;
  /** Accounts registered per client address (IPv6: per /64), successful or not yet known. */
  readonly addressRegistrations: number;
  readonly windowMs: number;
}

/** How calls to one provider instance are retried and when its circuit opens. */
export interface ResiliencePolicy {
  /** Retries after the first attempt (0 = none). */
  readonly retries: number;
  /** Base of the exponential backoff, in milliseconds (full jitter). */
  readonly backoffMs: number;
  /** Longest backoff between two attempts, in milliseconds (Retry-After may ask for more). */
  readonly maxBackoffMs: number;
  readonly breaker: {
    /** Consecutive failed requests that open the circuit (0 = no breaker). */
    readonly failures: number;
    /** How long the circuit stays open before one trial request, in milliseconds. */
    readonly halfOpenAfterMs: number;
  };
}

/** The default policy of every provider, and how providers that failed to list at start are retried. */
export interface ResilienceConfig extends ResiliencePolicy {
  readonly relisting: { readonly initialDelayMs: number; readonly maxDelayMs: number };
}

/** Requests per minute and characters per day (UTC); absent = unlimited. */
export interface LimitValues {
  readonly requestsPerMinute?: number;
  readonly charactersPerDay?: number;
}

/** Defaults per account (overridable per account), and optional caps per API key. */
export interface LimitsConfig extends LimitValues {
  readonly perKey: LimitValues;
  /** Bytes of stored audio files one account may hold until they expire; absent = unlimited. */
  readonly storageBytes?: number;
}

export interface CacheConfig {
  /** Voice-list cache lifetime, in milliseconds. */
  readonly catalogTtlMs: number;
  /** The result cache: identical requests answered from stored audio. */
  readonly results: { readonly enabled: boolean; readonly maxBytes: number; readonly ttlMs: number };
}

export interface SynthesisConfig {
  /** Deadline of one synthesis request end to end, in milliseconds. */
  readonly timeoutMs: number;
  /** Chunks of one long text synthesized at the same time. */
  readonly chunkConcurrency: number;
  /** Threads of the audio (DSP and encoding) pool; defaults to the core count. */
  readonly audioWorkers?: number;
  /** Longest audio one synthesis may make, in milliseconds. */
  readonly maxAudioDurationMs: number;
  /** Audio jobs that may wait for a worker; absent = audio workers x seconds of `timeoutMs`. */
  readonly maxQueuedTasks?: number;
}

export interface AudioConfig {
  /** The ffmpeg binary used for aac; undefined = `ffmpeg` on PATH. */
  readonly ffmpegPath?: string;
}

/** `model` is served by `target`; `voices` maps the alias's voice names to the target's. */
export interface ModelAliasConfig {
  readonly model: string;
  readonly target: string;
  readonly voices: Readonly<Record<string, string>>;
}

export interface RouteConfig {
  readonly name: string;
  readonly strategy: ConfigFile['routes'][number]['strategy'];
  readonly targets: readonly { readonly model: string; readonly voices: Readonly<Record<string, string>>; readonly weight: number }[];
}

export interface LoggingConfig {
  readonly level: ConfigFile['logging']['level'];
  readonly format: NonNullable<ConfigFile['logging']['format']>;
}

/** One provider instance: `plugin` names a built-in, an npm package or a path. */
export interface ProviderEntry {
  readonly plugin: string;
  /** Instance id; defaults to the plugin id. Two instances of one plugin need distinct ids. */
  readonly id?: string;
  readonly options?: Readonly<Record<string, unknown>>;
  /** Only these models of the provider are served. */
  readonly models?: readonly string[];
  /** Renames models: provider name -> catalog name (resolves clashes between providers). */
  readonly rename?: Readonly<Record<string, string>>;
  /** The entry is used only when all these environment variables are set and non-empty. */
  readonly ifEnv?: readonly string[];
  /** The largest answer read from this provider, in bytes (default 256 MiB); past it, 502. */
  readonly maxResponseBytes?: number;
  /** Where the entry is in the file (`providers[2]`), for messages; indices count skipped entries too. */
  readonly configPath?: string;
  /** This instance's policy (the `resilience:` defaults with the entry's overrides); absent = the defaults. */
  readonly resilience?: ResiliencePolicy;
}
