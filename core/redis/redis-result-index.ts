import type Redis from 'ioredis';
import type { CachedResult } from '../cache/result-cache';
import type { ResultIndex } from '../cache/result-index';

export interface RedisResultIndexOptions {
  /** Prefix of every key (config redis.keyPrefix). */
  readonly keyPrefix: string;
  /** Sum of the cached files' sizes at most (cache.results.maxBytes). */
  readonly maxBytes: number;
  /** How long an entry lives (cache.results.ttl). */
  readonly ttlMs: number;
  readonly now?: () => number;
}

/**
 * Bookkeeping of the byte bound, atomic in one script: the entries' sizes and a running total,
 * and their order of creation. Entries past their age have expired in Redis by themselves; their
 * sizes are taken off here. Over the bound, the oldest entries go first.
 * KEYS: order (sorted set), sizes (hash), total bytes. ARGV: entry key prefix, key, JSON, size,
 * ttl ms, now ms, max bytes.
 */
const SET_SCRIPT = `
local function drop(member)
  local size = redis.call('HGET', KEYS[2], member)
  if size then
    redis.call('DECRBY', KEYS[3], size)
    redis.call('HDEL', KEYS[2], member)
  end
  redis.call('ZREM', KEYS[1], member)
end
local size, ttl, now, max = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
drop(ARGV[2])
for _, member in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - ttl, 'LIMIT', 0, 100)) do drop(member) end
if size > max then
  redis.call('DEL', ARGV[1] .. ARGV[2])
  return 0
end
redis.call('SET', ARGV[1] .. ARGV[2], ARGV[3], 'PX', ttl)
redis.call('ZADD', KEYS[1], now, ARGV[2])
redis.call('HSET', KEYS[2], ARGV[2], size)
local total = redis.call('INCRBY', KEYS[3], size)
while total > max do
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0)[1]
  if not oldest then break end
  drop(oldest)
  redis.call('DEL', ARGV[1] .. oldest)
  total = tonumber(redis.call('GET', KEYS[3]))
end
return total
`;

/** KEYS as SET_SCRIPT; ARGV: entry key prefix, key. */
const FORGET_SCRIPT = `
local size = redis.call('HGET', KEYS[2], ARGV[2])
if size then
  redis.call('DECRBY', KEYS[3], size)
  redis.call('HDEL', KEYS[2], ARGV[2])
end
redis.call('ZREM', KEYS[1], ARGV[2])
return redis.call('DEL', ARGV[1] .. ARGV[2])
`;

/**
 * The result cache's index in Redis, shared by the replicas: request key -> the stored result
 * (its file in the shared audio store), bounded by bytes and age like the in-memory one (oldest
 * first rather than least recently used). Redis unreachable: lookups miss and nothing is kept,
 * so requests are synthesized; the client logs the outage once.
 */
export class RedisResultIndex implements ResultIndex {
  private readonly entryPrefix: string;
  private readonly bookkeeping: [order: string, sizes: string, total: string];
  private readonly now: () => number;

  constructor(
    private readonly client: Redis,
    private readonly options: RedisResultIndexOptions,
  ) {
    this.entryPrefix = `${options.keyPrefix}cache:entry:`;
    this.bookkeeping = [`${options.keyPrefix}cache:order`, `${options.keyPrefix}cache:sizes`, `${options.keyPrefix}cache:bytes`];
    this.now = options.now ?? Date.now;
  }

  async get(key: string): Promise<CachedResult | undefined> {
    if (this.client.status !== 'ready') return undefined;
    try {
      const stored = await this.client.get(this.entryPrefix + key);
      return stored === null ? undefined : (JSON.parse(stored) as CachedResult);
    } catch {
      return undefined;
    }
  }

  async set(key: string, result: CachedResult): Promise<void> {
    if (this.client.status !== 'ready') return;
    const { maxBytes, ttlMs } = this.options;
    const size = Math.max(1, result.size);
    await this.client
      .eval(SET_SCRIPT, 3, ...this.bookkeeping, this.entryPrefix, key, JSON.stringify(result), size, ttlMs, this.now(), maxBytes)
      .catch(() => undefined);
  }

  async forget(key: string): Promise<void> {
    if (this.client.status !== 'ready') return;
    await this.client.eval(FORGET_SCRIPT, 3, ...this.bookkeeping, this.entryPrefix, key).catch(() => undefined);
  }
}
