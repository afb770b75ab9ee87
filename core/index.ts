/**
 * Core's public entry point. Plugins import only from here (`tts-gateway/core` once published).
 */
export * from './plugin/contract';
export { definePlugin, type PluginDefinition } from './plugin/define-plugin';
export type { OptionsSchema, OptionsFromSchema } from './plugin/options-schema-type';
export * from './errors';
export * from './http';
export * from './workers';
export { AUDIO_FORMATS, CONTENT_TYPES, isAudioFormat, type AudioFormat } from './audio/audio-format';
export * from './accounts';
export * from './redis';
export * from './storage';
export * from './ssml';
export * from './audio';
export { DEFAULT_CREATE_TIMEOUT_MS, loadProviders, warmUpProviders, type LoadedProvider, type LoadProvidersOptions } from './plugin/plugin-loader';
export { PluginLoadError, type PluginLoadErrorCode } from './plugin/plugin-load-error';
export { closeProvider, DEFAULT_CLOSE_TIMEOUT_MS } from './plugin/close-provider';
export { raceTimeLimit, TimeLimitExceeded } from './abort/race-time-limit';
export { abortedByDeadline, LinkedAbort } from './abort/linked-abort';
export { raceAbort } from './abort/race-abort';
export * from './catalog';
export * from './synthesis';
export * from './routing';
export * from './cache';
export * from './resilience';
export * from './limits';
export * from './metrics';
export * from './health';
export { compareText } from './objects/compare-text';
export { extended } from './objects/extended';
export { hasLoneSurrogate } from './objects/lone-surrogate';
export { TurnoverTable } from './objects/turnover-table';
