import { LRUCache } from 'lru-cache';
import type { AccountRecord, ApiKeyRecord } from './account-store';

/** A key found by its hash, with its account: everything authenticate() needs. */
export interface CachedApiKey {
  readonly key: ApiKeyRecord;
  readonly account: AccountRecord;
}

export interface ApiKeyCacheOptions {
  /** How long a lookup is trusted; it bounds how stale a revocation can be when no broadcast arrives. */
  readonly ttlMs: number;
  readonly maxEntries?: number;
}

/**
 * Recent API-key lookups of this replica, so that a request does not read the database for its
 * key. Revocations remove entries here (the replica's own at once, the others' by broadcast).
 */
export class ApiKeyCache {
  private readonly entries: LRUCache<string, CachedApiKey>;

  constructor(options: ApiKeyCacheOptions) {
    this.entries = new LRUCache({ max: options.maxEntries ?? 10_000, ttl: options.ttlMs });
  }

  get(keyHash: string): CachedApiKey | undefined {
    return this.entries.get(keyHash);
  }

  set(keyHash: string, entry: CachedApiKey): void {
    this.entries.set(keyHash, entry);
  }

  /** Drops the key with this id (revocations name keys by id; rare, so a scan is fine). */
  forgetKey(keyId: string): void {
    for (const [keyHash, entry] of this.entries.entries()) {
      if (entry.key.id === keyId) this.entries.delete(keyHash);
    }
  }

  /** Drops everything: after missing broadcasts (Redis was away), nothing cached can be trusted. */
  clear(): void {
    this.entries.clear();
  }
}
