import { LRUCache } from 'lru-cache';
import type { LimitValues } from '../../config/types';

/**
 * Keeps each account's limit overrides for a short while, so that a synthesis request does not
 * read the database for them; a change made with the CLI applies within `ttlMs`.
 */
export function cachedAccountLimits(load: (accountId: string) => Promise<LimitValues>, ttlMs: number, maxAccounts = 10_000): (accountId: string) => Promise<LimitValues> {
  const cache = new LRUCache<string, LimitValues>({ max: maxAccounts, ttl: ttlMs });
  return async (accountId) => {
    const cached = cache.get(accountId);
    if (cached) return cached;
    const loaded = await load(accountId);
    cache.set(accountId, loaded);
    return loaded;
  };
}
