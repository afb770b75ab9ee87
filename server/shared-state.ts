import type { Logger } from 'winston';
import type { GatewayConfig } from '../config/types';
import { RedisKeyRevocations, type KeyRevocations } from '../core';

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
  close(): Promise<void>;
}

export function connectSharedState(config: GatewayConfig, logger: Logger): SharedState {
  if (!config.redis) return { close: async () => undefined };
  const revocations = new RedisKeyRevocations({ url: config.redis.url, keyPrefix: config.redis.keyPrefix, logger });
  return { revocations, keyCacheTtlMs: KEY_CACHE_TTL_MS, close: () => revocations.close() };
}
