import { LRUCache } from 'lru-cache';

/** A live key as AccountService hands it out, and when it expires (checked on every use). */
export interface CachedKey {
  readonly principal: { readonly account: { readonly id: string; readonly email: string }; readonly keyId: string };
  /** Unix milliseconds; null = until revoked. */
  readonly expiresAt: number | null;
}

export interface ApiKeyCacheOptions {
  /** How long a lookup is trusted; it bounds how stale a revocation can be when no announcement arrives. */
  readonly ttlMs: number;
  readonly maxEntries?: number;
}

/**
 * Recent API-key lookups of this process by the SHA-256 of the key (never the key itself), so
 * that a request does not read the database for its key. Revocations remove entries (this
 * process's at once, other replicas' by broadcast); `generation` lets a lookup that raced with a
 * revocation know not to cache what it read.
 */
export class ApiKeyCache {
  private readonly byHash: LRUCache<string, CachedKey>;
  private readonly hashByKeyId = new Map<string, string>();
  private currentGeneration = 0;

  constructor(options: ApiKeyCacheOptions) {
    this.byHash = new LRUCache<string, CachedKey>({
      max: options.maxEntries ?? 10_000,
      ttl: options.ttlMs,
      dispose: (entry, keyHash) => {
        if (this.hashByKeyId.get(entry.principal.keyId) === keyHash) this.hashByKeyId.delete(entry.principal.keyId);
      },
    });
  }

  /** Changes whenever an entry is dropped; read it before a lookup and pass it to `set`. */
  get generation(): number {
    return this.currentGeneration;
  }

  get(keyHash: string): CachedKey | undefined {
    return this.byHash.get(keyHash);
  }

  /** Caches a lookup unless something was dropped since `generation` was read. */
  set(keyHash: string, entry: CachedKey, generation: number): void {
    if (generation !== this.currentGeneration) return;
    this.byHash.set(keyHash, entry);
    this.hashByKeyId.set(entry.principal.keyId, keyHash);
  }

  /** Drops the key with this id (revocations name keys by id). */
  forgetKey(keyId: string): void {
    this.currentGeneration += 1;
    const keyHash = this.hashByKeyId.get(keyId);
    if (keyHash !== undefined) this.byHash.delete(keyHash);
  }

  /** Drops everything: after missed announcements (Redis was away) or a change by another process. */
  clear(): void {
    this.currentGeneration += 1;
    this.byHash.clear();
  }
}
