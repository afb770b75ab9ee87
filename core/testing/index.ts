/**
 * Core's test kit for plugin authors (a separate entry point, never loaded by the running
 * gateway). The suite is plain data and functions (`conformanceSuite`), run without a framework
 * (`runConformance`), declared in any runner (`registerConformance`) or in mocha
 * (`describeProviderConformance`).
 */
export { describeProviderConformance } from './describe-provider-conformance';
export { registerConformance, type ConformanceRunner } from './register-conformance';
export { runConformance, type ConformanceResult } from './run-conformance';
export { conformanceSuite, type CheckOutcome, type ConformanceCheck, type ConformanceGroup, type ConformanceSuite } from './conformance-suite';
export type { ConformanceGroupName, ConformanceOptions } from './conformance-options';
export { failingFetches } from './failing-fetches';
export { holdingFetch } from './holding-fetch';
export type { HeldAnswer, StreamingStandIn } from './held-answer';
