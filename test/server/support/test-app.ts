import { appliedPlan } from '../../support/applied-plan';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Application } from 'express';
import request from 'supertest';
import winston from 'winston';
import type { AuthThrottleConfig, GatewayConfig, LimitsConfig } from '../../../config/types';
import { AccountService, FileSystemAudioStore, LoginThrottle, MemoryWindowCounters, SqliteAccountStore, SynthesisLimiter, type AudioStore, type ProviderStatus, type VoiceInfo } from '../../../core';
import { createApp } from '../../../server/app';
import { PrometheusMetrics } from '../../../server/metrics/prometheus-metrics';
import type { ListModelsFunction, ListVoicesFunction, StreamFunction, SynthesisContext, SynthesisRequest, SynthesizeFunction } from '../../../server/app-dependencies';

export interface TestAppOptions {
  readonly synthesize?: SynthesizeFunction;
  readonly stream?: StreamFunction;
  readonly listModels?: ListModelsFunction;
  readonly listVoices?: ListVoicesFunction;
  readonly bodyLimitBytes?: number;
  readonly downloadRequiresKey?: boolean;
  readonly registration?: 'open' | 'closed';
  readonly publicBaseUrl?: string;
  /** Request and character limits; none by default. */
  readonly limits?: LimitsConfig;
  readonly loginKeyTtlMs?: number;
  /** `auth.maxKeysPerAccount`; 100 by default, as in the config. */
  readonly maxKeysPerAccount?: number;
  readonly throttle?: AuthThrottleConfig;
  /** The accounts' clock (key expiry); the real one by default. */
  readonly now?: () => number;
  /** Daily counters open with the characters the database holds for the day, as the gateway's do (composition-root). */
  readonly storedDayCharacters?: boolean;
  /** Behind a reverse proxy: X-Forwarded-For names the client. */
  readonly trustProxy?: boolean;
  readonly corsOrigins?: '*' | readonly string[];
  readonly metricsToken?: string;
  /** Providers as /health/ready reports them; default: one ready provider. */
  readonly providers?: () => readonly ProviderStatus[];
  /** Whether /health/ready says a stop began. */
  readonly stopping?: () => boolean;
  /** Whether /health/ready says the providers still warm up. */
  readonly warmingUp?: () => boolean;
  /** `storage.readTimeout`; 5 s by default. */
  readonly readTimeoutMs?: number;
  /** The store the app reads and writes through, made from the test's folder store (one that stalls); that folder store by default. */
  readonly audioStoreInApp?: (folderStore: FileSystemAudioStore) => AudioStore;
}

/** One in-process app with its own in-memory database, audio folder and captured log. */
export interface TestApp {
  readonly app: Application;
  readonly config: GatewayConfig;
  readonly accounts: AccountService;
  readonly store: SqliteAccountStore;
  readonly audioStore: FileSystemAudioStore;
  readonly metrics: PrometheusMetrics;
  /** Every log entry written, as objects. */
  readonly logs: Record<string, unknown>[];
  /** Calls the fake synthesize received. */
  readonly synthesisCalls: { request: SynthesisRequest; context: SynthesisContext }[];
  /** Registers an account and returns its key. */
  register(email?: string): Promise<{ apiKey: string; keyId: string; accountId: string }>;
  close(): Promise<void>;
}

export const VOICES: readonly VoiceInfo[] = [
  { voiceId: 'en-us', voiceName: 'English (US)', language: 'en-US', gender: 'Unknown', description: 'test voice' },
];

export function testConfig(options: TestAppOptions, audioPath: string): GatewayConfig {
  return {
    server: {
      port: 8080,
      host: '127.0.0.1',
      publicBaseUrl: options.publicBaseUrl,
      bodyLimitBytes: options.bodyLimitBytes ?? 256 * 1024,
      trustProxy: options.trustProxy ?? false,
      cors: { origins: options.corsOrigins ?? [] },
      maxConnections: 4096,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
    },
    storage: { driver: 'filesystem', path: audioPath, retentionMs: 3_600_000, sweepIntervalMs: 60_000, readTimeoutMs: options.readTimeoutMs ?? 5_000, downloadRequiresKey: options.downloadRequiresKey ?? false },
    database: { url: 'sqlite::memory:', statementTimeoutMs: 5_000 },
    auth: {
      registration: options.registration ?? 'open',
      loginKeyTtlMs: options.loginKeyTtlMs ?? 30 * 86_400_000,
      maxKeysPerAccount: options.maxKeysPerAccount ?? 100,
      // Registrations per address far above the default: these apps register many accounts from one address.
      throttle: options.throttle ?? { failures: 5, addressFailures: 20, addressRegistrations: 1_000, windowMs: 15 * 60_000 },
    },
    resilience: { retries: 2, backoffMs: 200, maxBackoffMs: 5000, breaker: { failures: 5, halfOpenAfterMs: 30_000 }, relisting: { initialDelayMs: 5000, maxDelayMs: 300_000 } },
    limits: options.limits ?? { perKey: {} },
    cache: { catalogTtlMs: 600_000, results: { enabled: true, maxBytes: 1_000_000, ttlMs: 3_600_000 } },
    synthesis: { timeoutMs: 30_000, chunkConcurrency: 2, maxAudioDurationMs: 1_800_000 },
    audio: {},
    aliases: [],
    routes: [],
    metrics: { enabled: true, ...(options.metricsToken !== undefined && { token: options.metricsToken }) },
    logging: { level: 'debug', format: 'json' },
    providers: [],
    baseDirectory: process.cwd(),
    skippedProviders: [],
  };
}

export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const directory = mkdtempSync(join(tmpdir(), 'server-test-'));
  const config = testConfig(options, join(directory, 'audio'));
  const store = new SqliteAccountStore(':memory:');
  const accounts = new AccountService(store, {
    registration: config.auth.registration,
    loginKeyTtlMs: config.auth.loginKeyTtlMs,
    maxKeysPerAccount: config.auth.maxKeysPerAccount,
    scrypt: { cost: 1024, blockSize: 8, parallelization: 1 },
    now: options.now,
  });
  const counters = new MemoryWindowCounters();
  const limiter = new SynthesisLimiter({
    limits: config.limits,
    counters,
    accountLimits: (accountId) => store.getAccountLimits(accountId),
    now: options.now,
    storedCharacters: options.storedDayCharacters ? (accountId, fromMs, toMs) => store.charactersByKey(accountId, fromMs, toMs) : undefined,
  });
  const loginThrottle = new LoginThrottle({ ...config.auth.throttle, counters });
  const audioStore = new FileSystemAudioStore(config.storage.path, config.storage.retentionMs);
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, encoding, callback) {
      logs.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      callback();
    },
  });
  const logger = winston.createLogger({ level: 'debug', format: winston.format.json(), transports: [new winston.transports.Stream({ stream: sink })] });
  const synthesisCalls: TestApp['synthesisCalls'] = [];
  const metrics = new PrometheusMetrics();
  // By default synthesis really stores a file, so the download route can be driven end to end.
  const defaultSynthesize: SynthesizeFunction = async (synthesisRequest) => {
    const sampleRate = synthesisRequest.format === 'pcm' ? 24_000 : undefined;
    const saved = await audioStore.save(Buffer.from(`audio for ${synthesisRequest.text}`), synthesisRequest.format, { sampleRate });
    return { ...saved, format: synthesisRequest.format, applied: appliedPlan({ speed: 'native', pitch: 'dsp' }), provider: 'fake', servedBy: `${synthesisRequest.model}/${synthesisRequest.voice}`, instructionsIgnored: false, sampleRate };
  };
  const synthesize: SynthesizeFunction = (synthesisRequest, context) => {
    synthesisCalls.push({ request: synthesisRequest, context });
    return (options.synthesize ?? defaultSynthesize)(synthesisRequest, context);
  };
  // By default a stream sends the text's bytes in two pieces.
  const defaultStream: StreamFunction = async (synthesisRequest) => {
    const bytes = Buffer.from(`audio for ${synthesisRequest.text}`);
    const progress = { bytes: 0, durationSeconds: 1.5 };
    async function* chunks() {
      for (const piece of [bytes.subarray(0, 4), bytes.subarray(4)]) {
        progress.bytes += piece.byteLength;
        yield piece;
      }
    }
    return { format: synthesisRequest.format, sampleRate: 24_000, applied: appliedPlan({ speed: 'native' }), provider: 'fake', servedBy: `${synthesisRequest.model}/${synthesisRequest.voice}`, instructionsIgnored: false, progress, chunks: chunks() };
  };
  const stream: StreamFunction = (synthesisRequest, context) => {
    synthesisCalls.push({ request: synthesisRequest, context });
    return (options.stream ?? defaultStream)(synthesisRequest, context);
  };
  const listModels = options.listModels ?? (async () => ['espeak-ng', 'tts-1']);
  const app = createApp({
    config,
    logger,
    accounts,
    audioStore: options.audioStoreInApp?.(audioStore) ?? audioStore,
    listModels,
    listModelEntries: async () => (await listModels()).map((id) => ({ id, ownedBy: 'fake' })),
    listVoices: options.listVoices ?? (async () => VOICES),
    synthesize,
    stream,
    startedAt: 1_795_000_000,
    limiter,
    loginThrottle,
    metrics,
    readiness: {
      database: () => accounts.checkDatabase(),
      audioStore: () => audioStore.checkWritable(),
      providers: options.providers ?? (() => [{ id: 'espeak', status: 'ready', models: 1 }]),
      stopping: options.stopping ?? (() => false),
      warmingUp: options.warmingUp ?? (() => false),
    },
  });
  let counter = 0;
  return {
    app,
    config,
    accounts,
    store,
    audioStore,
    metrics,
    logs,
    synthesisCalls,
    async register(email?: string) {
      counter += 1;
      const response = await request(app)
        .post('/api/v1/auth/register')
        .send({ email: email ?? `user${counter}@example.com`, password: 'password-123' })
        .expect(200);
      return { apiKey: response.body.data.apiKey, keyId: response.body.data.keyId, accountId: response.body.data.account.id };
    },
    async close() {
      logger.close();
      await store.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Asserts the error envelope of an answer and returns its error part. */
export function expectErrorEnvelope(body: unknown, code: string): { code: string; details: Record<string, unknown>[] } {
  const envelope = body as { success: boolean; data: unknown; message: string; timestamp: number; error: { code: string; details: Record<string, unknown>[] } };
  if (envelope.success !== false || envelope.data !== null || typeof envelope.message !== 'string' || typeof envelope.timestamp !== 'number') {
    throw new Error(`not an error envelope: ${JSON.stringify(body)}`);
  }
  if (envelope.error.code !== code) throw new Error(`expected ${code}, got ${envelope.error.code}: ${envelope.message}`);
  return envelope.error;
}
