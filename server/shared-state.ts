import type { Logger } from 'winston';
import type { GatewayConfig } from '../config/types';
import { createRedisClient, RedisKeyRevocations, RedisResultIndex, RedisSharedFlight, RedisWindowCounters, type KeyRevocations, type ResultIndex, type SharedFlight, type WindowCounters } from '../core';

/**
 * How long a replica trusts a cached API-key lookup. Revocations reach the other replicas at
 * once over Redis; this only bounds the staleness when an announcement is lost (Redis away).
 */
export const KEY_CACHE_TTL_MS = 10_000;

/** What replicas share through Redis; all absent in the embedded mode (no `redis.url`). */
export interface SharedState {
  readonly revocations?: KeyRevocations;
  /** Set with Redis: API-key lookups are cached per replica. */
  readonly keyCacheTtlMs?: number;
  /** Rate limits, quotas and login throttling counted across replicas. */
  readonly counters?: WindowCounters;
  /** The result cache's index and single-flight lock across replicas. */
  readonly resultIndex?: ResultIndex;
  readonly sharedFlight?: SharedFlight;
  close(): Promise<void>;
}

export function connectSharedState(config: GatewayConfig, logger: Logger): SharedState {
  if (!config.redis) return { close: async () => undefined };
  const { url, keyPrefix } = config.redis;
  const revocations = new RedisKeyRevocations({ url, keyPrefix, logger });
  // One connection for the request path (limits, cache index, locks): it fails fast while Redis is away.
  const client = createRedisClient(url, {
    queueWhileDisconnected: false,
    logger,
    role: 'redis (limits, result cache)',
    whileAway: "rate limits are counted in each replica's memory and the result cache is bypassed",
  });
  const results = config.cache.results;
  const sharedFlight = new RedisSharedFlight({ client, url, keyPrefix });
  return {
    revocations,
    keyCacheTtlMs: KEY_CACHE_TTL_MS,
    counters: new RedisWindowCounters(client, keyPrefix),
    resultIndex: new RedisResultIndex(client, { keyPrefix, maxBytes: results.maxBytes, ttlMs: results.ttlMs }),
    sharedFlight,
    close: async () => {
      await Promise.allSettled([revocations.close(), sharedFlight.close()]);
      client.disconnect();
    },
  };
}
