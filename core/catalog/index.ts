export { Catalog, type CatalogOptions, type ResolvedModel } from './catalog';
export { VoiceListCache, type VoiceListCacheOptions, type VoiceListLoader } from './voice-list-cache';
