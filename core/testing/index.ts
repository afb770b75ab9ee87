/**
 * Core's test kit for plugin authors (a separate entry point: it needs mocha's globals and is
 * never loaded by the running gateway).
 */
export { describeProviderConformance } from './describe-provider-conformance';
export type { ConformanceOptions } from './conformance-options';
export { failingFetches } from './failing-fetches';
