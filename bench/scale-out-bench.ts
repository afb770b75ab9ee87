/**
 * Per-request cost of the replica setup (PostgreSQL + Redis) against the embedded one (SQLite,
 * memory), measured in the same run on throw-away servers, with the gateway's own classes: the
 * API-key authentication (a per-process key cache in both setups, PostgreSQL or SQLite behind it), the
 * limit check (requests per minute and characters per day of the account, counted
 * in Redis or in memory) and the result-cache lookup (the index in Redis or in memory). Target:
 * <= 0.3 ms added at p50 for the three as a request makes them (the key first, then the limit
 * check and the cache lookup at once). Not a test: it prints figures and whether
 * the target holds.
 */
import { performance } from 'node:perf_hooks';
import {
  AccountService,
  createRedisClient,
  MemoryWindowCounters,
  openAccountStore,
  RedisKeyRevocations,
  RedisResultIndex,
  RedisWindowCounters,
  ResultCache,
  SynthesisLimiter,
  type AccountStore,
  type CachedResult,
  type ResultIndex,
  type WindowCounters,
} from '../core';
import { PostgresServer } from '../test/support/servers/postgres-server';
import { RedisServer } from '../test/support/servers/redis-server';

const ITERATIONS = 2000;
const WARM_UP = 200;
const TARGET_MS = 0.3;
const FAST_SCRYPT = { cost: 1024, blockSize: 8, parallelization: 1 };

interface Percentiles {
  readonly p50: number;
  readonly p95: number;
}

async function measure(work: () => Promise<unknown>): Promise<Percentiles> {
  for (let index = 0; index < WARM_UP; index += 1) await work();
  const samples: number[] = [];
  for (let index = 0; index < ITERATIONS; index += 1) {
    const start = performance.now();
    await work();
    samples.push(performance.now() - start);
  }
  samples.sort((left, right) => left - right);
  return { p50: samples[Math.floor(samples.length * 0.5)], p95: samples[Math.floor(samples.length * 0.95)] };
}

function row(label: string, embedded: Percentiles | undefined, shared: Percentiles): void {
  const cell = (value: number | undefined): string => (value === undefined ? '—' : `${value.toFixed(3)} ms`).padStart(10);
  const added = embedded ? shared.p50 - embedded.p50 : shared.p50;
  console.log(`${label.padEnd(30)} ${cell(embedded?.p50)} ${cell(shared.p50)} ${cell(shared.p95)} ${cell(added)}`);
}

async function accountsOn(store: AccountStore, revocations?: RedisKeyRevocations): Promise<{ accounts: AccountService; apiKey: string }> {
  const accounts = new AccountService(store, { registration: 'open', scrypt: FAST_SCRYPT, ...(revocations && { keyCacheTtlMs: 10_000, revocations }) });
  const { apiKey } = await accounts.register('bench@example.com', 'correct horse battery');
  return { accounts, apiKey: apiKey.apiKey };
}

/** Limits that every request passes, so each one counts in both windows. */
const LIMITS = { requestsPerMinute: 1_000_000_000, charactersPerDay: 1_000_000_000_000, perKey: {} };
const CALLER = { accountId: 'bench-account', keyId: 'bench-key' };
const CACHE_KEY = 'bench-request-key';

const limiterOn = (counters: WindowCounters): SynthesisLimiter => new SynthesisLimiter({ limits: LIMITS, counters, accountLimits: async () => ({}) });

/** A stored result as the index keeps it. */
function cachedResult(): CachedResult {
  const applied = { speed: 'native', pitch: 'default', volume: 'default', format: 'native', chunks: 1 } as const;
  return { fileName: 'a9Kx2mQ7rT4vW8yB1cD5fG3hJ6kL0nP.mp3', size: 48_213, format: 'mp3', applied, provider: 'kokoro', servedBy: 'kokoro-tts-1/af_bella', instructionsIgnored: false, durationSeconds: 3.2 };
}

/** One request's shared-state work, as the gateway does it: who asks, then whether they may and whether it is cached, at once. */
function requestPath(accounts: AccountService, apiKey: string, limiter: SynthesisLimiter, index: ResultIndex): () => Promise<unknown> {
  return async () => {
    await accounts.authenticate(apiKey);
    return Promise.all([limiter.admit(CALLER, 40), index.get(CACHE_KEY)]);
  };
}

export async function runScaleOutBench(): Promise<void> {
  let postgres: PostgresServer | undefined;
  let redis: RedisServer | undefined;
  try {
    [postgres, redis] = await Promise.all([PostgresServer.start(), RedisServer.start()]);
  } catch (error) {
    console.log(`\nscale-out bench skipped: ${error instanceof Error ? error.message : String(error)}`);
    await Promise.allSettled([postgres?.stop(), redis?.stop()]);
    return;
  }
  const sqlite = await openAccountStore('sqlite::memory:');
  const pg = await openAccountStore(await postgres.createDatabase('bench'));
  const revocations = new RedisKeyRevocations({ url: redis.url, keyPrefix: 'bench:' });
  const counters = createRedisClient(redis.url, { queueWhileDisconnected: false, role: 'bench' });
  try {
    await revocations.subscribed();
    await new Promise((resolve) => (counters.status === 'ready' ? resolve(undefined) : counters.once('ready', resolve)));
    const embedded = await accountsOn(sqlite);
    const shared = await accountsOn(pg, revocations);
    console.log(`\nscale-out bench: ${ITERATIONS} sequential requests each, PostgreSQL ${postgres.port} and Redis ${redis.port} on this machine`);
    console.log(`${'per request'.padEnd(30)} ${'embedded'.padStart(10)} ${'replicas'.padStart(10)} ${'p95'.padStart(10)} ${'added p50'.padStart(10)}`);
    const authEmbedded = await measure(() => embedded.accounts.authenticate(embedded.apiKey));
    const authShared = await measure(() => shared.accounts.authenticate(shared.apiKey));
    row('auth lookup (key + last use)', authEmbedded, authShared);
    const memoryLimiter = limiterOn(new MemoryWindowCounters());
    const redisLimiter = limiterOn(new RedisWindowCounters(counters, 'bench:'));
    row('limit check (minute + day)', await measure(() => memoryLimiter.admit(CALLER, 40)), await measure(() => redisLimiter.admit(CALLER, 40)));
    const memoryIndex = new ResultCache({ maxBytes: 512 * 1024 * 1024, ttlMs: 86_400_000 });
    const redisIndex = new RedisResultIndex(counters, { keyPrefix: 'bench:', maxBytes: 512 * 1024 * 1024, ttlMs: 86_400_000 });
    memoryIndex.set(CACHE_KEY, cachedResult());
    await redisIndex.set(CACHE_KEY, cachedResult());
    row('result-cache lookup (hit)', await measure(() => Promise.resolve(memoryIndex.get(CACHE_KEY))), await measure(() => redisIndex.get(CACHE_KEY)));
    const togetherEmbedded = await measure(requestPath(embedded.accounts, embedded.apiKey, memoryLimiter, memoryIndex));
    const togetherShared = await measure(requestPath(shared.accounts, shared.apiKey, redisLimiter, redisIndex));
    row('together, as a request', togetherEmbedded, togetherShared);
    const added = togetherShared.p50 - togetherEmbedded.p50;
    console.log(`added per request at p50: ${added.toFixed(3)} ms (target <= ${TARGET_MS} ms: ${added <= TARGET_MS ? 'met' : 'NOT met'})`);
  } finally {
    counters.disconnect();
    await revocations.close();
    await Promise.allSettled([sqlite.close(), pg.close()]);
    await Promise.allSettled([postgres.stop(), redis.stop()]);
  }
}
