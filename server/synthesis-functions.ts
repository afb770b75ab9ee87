import { extended, type CachedSynthesis, type StorageQuota } from '../core';
import type { AppDependencies } from './app-dependencies';
import { observeStream, observeSynthesis, type SynthesisObservers } from './observe-synthesis';

export interface SynthesisFunctionOptions {
  /** `cache.results.enabled`: off, every call bypasses the cache. */
  readonly cacheEnabled: boolean;
  /** The cache's index is shared (Redis): only then does a lookup started early gain anything. */
  readonly sharedIndex: boolean;
  /** `limits.storageBytes`, checked before a file is made. */
  readonly quota?: StorageQuota;
  readonly observers: SynthesisObservers;
}

/** What the synthesis routes call: the result cache in front of the synthesis service, observed for the metrics. */
export function synthesisFunctions(cached: CachedSynthesis, options: SynthesisFunctionOptions): Pick<AppDependencies, 'synthesize' | 'stream' | 'lookUpResult'> {
  const { cacheEnabled, quota, observers } = options;
  const useCache = (requested: boolean | undefined): boolean => cacheEnabled && requested !== false;
  return {
    synthesize: observeSynthesis(async (request, context) => {
      // Before any work: audio the account could not keep is not made.
      if (quota && context.accountId !== undefined) await quota.check(context.accountId);
      return cached.synthesize(request, extended(context, { useCache: useCache(context.useCache) }));
    }, observers),
    stream: observeStream((request, context) => cached.stream(request, extended(context, { useCache: useCache(context.useCache) })), observers),
    // An in-memory index answers at once: its lookup is made by the call itself.
    ...(cacheEnabled && options.sharedIndex && { lookUpResult: (request) => cached.lookUp(request) }),
  };
}
