/** The configuration file's shape after schema validation (defaults filled, units still as written). */

export type Duration = string | number;
export type ByteSize = string | number;

export interface ResiliencePolicyFile {
  readonly retries?: number;
  readonly backoff?: Duration;
  readonly maxBackoff?: Duration;
  readonly breaker?: { failures?: number; halfOpenAfter?: Duration };
}

export interface LimitValuesFile {
  readonly requestsPerMinute?: number;
  readonly charactersPerDay?: number;
}

export interface ProviderEntryFile {
  readonly plugin: string;
  readonly id?: string;
  readonly options?: Record<string, unknown>;
  readonly models?: string[];
  readonly rename?: Record<string, string>;
  readonly ifEnv?: string | string[];
  readonly resilience?: ResiliencePolicyFile;
  readonly maxResponseBytes: ByteSize;
}

export interface AliasEntryFile {
  readonly model: string;
  readonly target: string;
  readonly voices: Record<string, string>;
}

export interface RouteEntryFile {
  readonly name: string;
  readonly strategy: 'fallback' | 'loadbalance';
  readonly targets: { readonly model: string; readonly voices: Record<string, string>; readonly weight: number }[];
}

export interface S3StorageFile {
  readonly bucket: string;
  readonly endpoint?: string;
  readonly region?: string;
  readonly forcePathStyle: boolean;
  readonly prefix: string;
  readonly accessKeyId?: string;
  readonly secretAccessKey?: string;
}

export interface ConfigFile {
  readonly server: {
    port: number;
    host: string;
    publicBaseUrl?: string;
    bodyLimit: ByteSize;
    trustProxy: boolean;
    cors: { origins: '*' | string[] };
    maxConnections: number;
    headersTimeout: Duration;
    requestTimeout: Duration;
    keepAliveTimeout: Duration;
  };
  readonly storage: { driver: 'filesystem' | 's3'; path: string; retention: Duration; sweepInterval: Duration; downloadRequiresKey: boolean; s3?: S3StorageFile };
  readonly database: { url: string };
  readonly redis: { url?: string; keyPrefix: string };
  readonly auth: {
    registration: 'open' | 'closed';
    loginKeyTtl: Duration;
    throttle: { failures: number; addressFailures: number; window: Duration };
  };
  readonly resilience: {
    retries: number;
    backoff: Duration;
    maxBackoff: Duration;
    breaker: { failures: number; halfOpenAfter: Duration };
    relisting: { initialDelay: Duration; maxDelay: Duration };
  };
  readonly limits: LimitValuesFile & { perKey: LimitValuesFile; storageBytes?: ByteSize };
  readonly cache: { catalogTtl: Duration; results: { enabled: boolean; maxBytes: ByteSize; ttl?: Duration } };
  readonly synthesis: { timeout: Duration; chunkConcurrency: number; audioWorkers?: number; maxAudioDuration: Duration; maxQueuedTasks?: number };
  readonly audio: { ffmpegPath?: string };
  readonly aliases: AliasEntryFile[];
  readonly routes: RouteEntryFile[];
  readonly metrics: { enabled: boolean; token?: string };
  readonly logging: { level: 'error' | 'warn' | 'info' | 'debug'; format?: 'json' | 'pretty' };
  readonly providers: ProviderEntryFile[];
}
