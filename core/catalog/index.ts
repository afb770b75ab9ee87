export { Catalog, type CatalogOptions, type ResolvedModel } from './catalog';
export { BackgroundRelisting, type BackgroundRelistingOptions } from './background-relisting';
export { VoiceListCache, type VoiceListCacheOptions, type VoiceListLoader } from './voice-list-cache';
