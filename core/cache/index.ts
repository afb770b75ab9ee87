export { ResultCache, type CachedResult, type ResultCacheOptions } from './result-cache';
export { resultCacheKey } from './result-cache-key';
export { CachedSynthesis, type CacheStorage, type CachedSynthesisOptions, type RememberedFacts, type Synthesizer } from './cached-synthesis';
export type { ReleaseFlight, ResultIndex, SharedFlight } from './result-index';
export type { ResultLookup } from './result-lookup';
