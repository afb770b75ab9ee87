import { LRUCache } from 'lru-cache';
import type { Logger, VoiceInfo } from '../plugin/contract';
import { redactSecrets } from '../http';

export interface VoiceListCacheOptions {
  /** How long a fetched list is fresh. */
  readonly ttlMs: number;
  /** A forced refresh (voice not found) is skipped when the list is younger than this. */
  readonly minRefreshIntervalMs: number;
  /**
   * After a failed fetch, the provider is not asked again for this long: a stale list is served
   * meanwhile, and a model that never had one fails at once with the same error.
   */
  readonly retryAfterFailureMs: number;
  readonly maxEntries: number;
  readonly now: () => number;
  readonly logger: Logger;
}

interface Entry {
  readonly voices: readonly VoiceInfo[];
  /** When the provider last answered with this list. */
  readonly fetchedAt: number;
  /** When the provider was last asked (answered or failed). */
  readonly checkedAt: number;
}

export type VoiceListLoader = (key: string) => Promise<readonly VoiceInfo[]>;

/**
 * Voice lists by model, fresh for a TTL. Concurrent misses share one fetch; a failed fetch
 * falls back to the last good list (kept past its TTL as stale) and is logged. Without a list to
 * fall back on, the failure itself is kept for `retryAfterFailureMs`: in a provider's outage each
 * request then fails at once instead of waiting for another listing to fail (and logging it).
 */
export class VoiceListCache {
  private readonly entries: LRUCache<string, Entry>;
  private readonly inFlight = new Map<string, Promise<readonly VoiceInfo[]>>();
  private readonly failures: LRUCache<string, { readonly error: unknown }>;

  constructor(
    private readonly load: VoiceListLoader,
    private readonly options: VoiceListCacheOptions,
  ) {
    this.entries = new LRUCache<string, Entry>({
      max: options.maxEntries,
      ttl: options.ttlMs,
      // Stale entries stay: they are the fallback when a provider's listing fails.
      noDeleteOnStaleGet: true,
      ttlResolution: 0,
      perf: { now: options.now },
    });
    this.failures = new LRUCache<string, { readonly error: unknown }>({
      max: options.maxEntries,
      ttl: options.retryAfterFailureMs,
      ttlResolution: 0,
      perf: { now: options.now },
    });
  }

  /** The list for `key` if a fresh one is cached: no promise, for the hot path. */
  fresh(key: string): readonly VoiceInfo[] | undefined {
    return this.entries.get(key)?.voices;
  }

  /** The list for `key`: cached while fresh; `forceRefresh` asks the provider again. */
  get(key: string, forceRefresh = false): Promise<readonly VoiceInfo[]> {
    const fresh = this.entries.get(key);
    if (fresh && !forceRefresh) return Promise.resolve(fresh.voices);
    if (fresh && this.options.now() - fresh.checkedAt < this.options.minRefreshIntervalMs) return Promise.resolve(fresh.voices);
    const failure = this.failures.get(key);
    if (failure) return Promise.reject(failure.error);
    return this.refresh(key);
  }

  private refresh(key: string): Promise<readonly VoiceInfo[]> {
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const promise = this.load(key)
      .then(
        (voices) => {
          const now = this.options.now();
          this.entries.set(key, { voices, fetchedAt: now, checkedAt: now });
          this.failures.delete(key);
          return voices;
        },
        (error: unknown) => this.fallBack(key, error),
      )
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, promise);
    return promise;
  }

  private fallBack(key: string, error: unknown): readonly VoiceInfo[] {
    const stale = this.entries.get(key, { allowStale: true });
    const reason = redactSecrets(error instanceof Error ? error.message : String(error));
    if (!stale) {
      this.options.logger.warn(`Voice list of model "${key}" could not be fetched`, { model: key, reason, retryInSeconds: Math.round(this.options.retryAfterFailureMs / 1000) });
      this.failures.set(key, { error });
      throw error;
    }
    const now = this.options.now();
    this.options.logger.warn(`Voice list of model "${key}" could not be refreshed; serving the last good list`, {
      model: key,
      reason,
      ageSeconds: Math.round((now - stale.fetchedAt) / 1000),
    });
    // Keep the stale list, and wait a little before asking the failing provider again.
    this.entries.set(key, { ...stale, checkedAt: now }, { ttl: Math.min(this.options.retryAfterFailureMs, this.options.ttlMs) });
    return stale.voices;
  }
}
