import type { CachedResult } from './result-cache';

/**
 * Where the result cache looks up request keys: this process's memory (ResultCache) or a store
 * the replicas share (Redis). A shared index that cannot be reached answers misses and keeps
 * nothing, so the cache is bypassed rather than failing requests.
 */
export interface ResultIndex {
  get(key: string): CachedResult | undefined | Promise<CachedResult | undefined>;
  set(key: string, result: CachedResult): void | Promise<void>;
  /** Drops an entry whose file is gone. */
  forget(key: string): void | Promise<void>;
}

/** Gives the lock back, and lets the replicas waiting for it know. */
export type ReleaseFlight = () => Promise<void>;

/**
 * Single-flight across replicas: one holder per cache key at a time, with expiry so that a
 * holder that dies does not block the key for long.
 */
export interface SharedFlight {
  /**
   * Takes the key's lock and answers how to release it; or, while another replica holds it,
   * waits until it is released and answers undefined (the caller looks the key up again). A lock
   * whose holder died expires and is taken then. Without the shared store it answers a release
   * that does nothing: the replica goes on alone. `signal` (the request's own limits) stops the
   * wait: it rejects with the signal's reason, leaves the holder's lock as it is, and gives back
   * at once a lock it took meanwhile (no one is left to use it, and others may be waiting for it).
   */
  acquire(key: string, signal?: AbortSignal): Promise<ReleaseFlight | undefined>;
}
