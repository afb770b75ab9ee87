import { GatewayError } from '../errors';
import type { AccountStore } from './account-store';
import { publicAccount, type AuthenticatedKey } from './account-views';
import { hashesEqual, hashApiKey, looksLikeApiKey } from './api-key';
import { ApiKeyCache, type CachedKey } from './api-key-cache';
import type { KeyRevocations } from './key-revocations';

const BAD_KEY = 'A valid API key is required (X-API-Key, or Authorization: Bearer)';
const EXPIRED_KEY = 'The API key has expired; log in again or create a new key';
/** How long a key is trusted in memory when the store reports other processes' changes anyway. */
const LOCAL_KEY_CACHE_TTL_MS = 60_000;

export interface ApiKeyAuthenticatorOptions {
  /** See AccountServiceOptions.keyCacheTtlMs. */
  readonly keyCacheTtlMs?: number;
  readonly revocations?: KeyRevocations;
  readonly now: () => number;
  /** Told of each accepted use of a key (its `lastUsedAt` is written later, in a batch). */
  readonly onUse: (keyId: string, now: number) => void;
}

/**
 * Resolves X-API-Key values to their account. A known live key is answered from memory; the
 * cache forgets a key when this process or another replica revokes it, and everything when
 * another process changed the store (SQLite's change marker).
 */
export class ApiKeyAuthenticator {
  private readonly keyCache: ApiKeyCache | undefined;
  /** The store tells about other processes' changes (SQLite's change marker). */
  private readonly tracksChanges: boolean;
  /** The store's change marker when the key cache was last known to match it (undefined: not read yet, the cache is empty). */
  private storeMarker: number | undefined;
  /** This pass's comparison with the store's marker, which every request of the pass waits for. */
  private markerCheck: Promise<void> | undefined;

  constructor(
    private readonly store: AccountStore,
    private readonly options: ApiKeyAuthenticatorOptions,
  ) {
    this.tracksChanges = store.changeMarker !== undefined;
    const ttlMs = options.keyCacheTtlMs ?? (this.tracksChanges ? LOCAL_KEY_CACHE_TTL_MS : undefined);
    const cache = ttlMs !== undefined ? new ApiKeyCache({ ttlMs }) : undefined;
    this.keyCache = cache;
    if (cache) options.revocations?.listen({ onRevoked: (keyId) => cache.forgetKey(keyId), onMissed: () => cache.clear() });
  }

  /** The caller of this key; 401 when missing (`reason: missing`: no key was sent at all), unknown, revoked or expired. */
  async authenticate(apiKey: string | undefined): Promise<AuthenticatedKey> {
    if (apiKey === undefined || apiKey === '') throw new GatewayError('TTS_ERR_UNAUTHORIZED', BAD_KEY, { details: [{ reason: 'missing' }] });
    if (!looksLikeApiKey(apiKey)) throw new GatewayError('TTS_ERR_UNAUTHORIZED', BAD_KEY);
    const keyHash = hashApiKey(apiKey);
    // A database that cannot tell (locked past the busy timeout, damaged) fails the request as any read of it would: 503.
    if (this.tracksChanges) await this.dropCacheIfStoreChanged();
    const { principal, expiresAt } = this.trustedCache()?.get(keyHash) ?? (await this.lookUpKey(keyHash));
    const now = this.options.now();
    // Checked on every request, cached or not: a key stops at its expiry to the millisecond.
    if (expiresAt !== null && expiresAt <= now) throw new GatewayError('TTS_ERR_UNAUTHORIZED', EXPIRED_KEY, { details: [{ reason: 'expired' }] });
    this.options.onUse(principal.keyId, now);
    return principal;
  }

  /** Stops trusting a key this process revoked. */
  forgetKey(keyId: string): void {
    this.keyCache?.forgetKey(keyId);
  }

  /** Reads a live key and its account from the store (and caches them unless a revocation raced the read); 401 otherwise. */
  private async lookUpKey(keyHash: string): Promise<CachedKey> {
    const generation = this.keyCache?.generation ?? 0;
    const key = await this.store.findApiKeyByHash(keyHash);
    if (!key || key.revokedAt !== null || !hashesEqual(key.keyHash, keyHash)) {
      throw new GatewayError('TTS_ERR_UNAUTHORIZED', BAD_KEY);
    }
    const account = await this.store.findAccountById(key.accountId);
    if (!account) throw new GatewayError('TTS_ERR_UNAUTHORIZED', BAD_KEY);
    const principal: AuthenticatedKey = Object.freeze({ account: Object.freeze(publicAccount(account)), keyId: key.id });
    const entry: CachedKey = { principal, expiresAt: key.expiresAt ?? null };
    this.trustedCache()?.set(keyHash, entry, generation);
    return entry;
  }

  /**
   * The key cache while revocations can reach it; none while the announcements' connection is
   * down (Redis restarted, a network blip): a key revoked on another replica meanwhile would
   * otherwise be accepted here until its entry expired. Keys are read from the store meanwhile.
   */
  private trustedCache(): ApiKeyCache | undefined {
    if (this.options.revocations && !this.options.revocations.isListening()) return undefined;
    return this.keyCache;
  }

  /**
   * Another process (the CLI revoking a key) changed the store: nothing cached can be trusted.
   * Asked once per pass of the event loop: requests read in one pass arrived together, and
   * under load one pass serves dozens of them (the question is a SQLite statement and two locks).
   */
  private dropCacheIfStoreChanged(): Promise<void> {
    if (this.markerCheck === undefined) {
      this.markerCheck = this.compareMarker();
      setImmediate(() => (this.markerCheck = undefined));
    }
    return this.markerCheck;
  }

  private async compareMarker(): Promise<void> {
    const marker = await this.store.changeMarker?.();
    if (marker === this.storeMarker) return;
    this.storeMarker = marker;
    this.keyCache?.clear();
  }
}
