import type { CachedResult } from './result-cache';

/**
 * A result-cache lookup started ahead of the synthesis call that will use it: the server starts
 * it while the request's limits are checked, so that with Redis the two round trips overlap
 * instead of following each other. Used only by a call whose request has the same key.
 */
export interface ResultLookup {
  readonly key: string;
  readonly found: Promise<CachedResult | undefined>;
}
