/**
 * What the retry/breaker layer costs on the happy path: the p50 of one `synthesize` call through
 * ResilientProvider against the same provider called directly, in the same run (interleaved
 * rounds, so both see the same machine). The provider answers at once, so the difference is the
 * layer's own work (policies, deadline watch, audio check). Budget: +0.05 ms at p50.
 * Not a test: it reports, and asserts nothing.
 */
import { performance } from 'node:perf_hooks';
import type { ResiliencePolicy } from '../config/types';
import type { ProviderAudio, ProviderSynthesisRequest, TtsProvider } from '../core/plugin/contract';
import { ResilientProvider } from '../core/resilience';
import { median } from './median';

const ROUNDS = 20;
const CALLS_PER_ROUND = 2_000;
const BUDGET_MS = 0.05;

const AUDIO: ProviderAudio = { audio: new Uint8Array(4_800), format: 'pcm', sampleRate: 24_000, warnings: [] };

/** A provider with no work of its own: whatever the timings show is the caller's overhead. */
const instant: TtsProvider = {
  models: async () => [],
  voices: async () => [],
  synthesize: async () => AUDIO,
};

const policy: ResiliencePolicy = { retries: 2, backoffMs: 200, maxBackoffMs: 5_000, breaker: { failures: 5, halfOpenAfterMs: 30_000 } };
const layered = new ResilientProvider(instant, { instanceId: 'bench', policy, logger: { debug() {}, info() {}, warn() {}, error() {} }, defaultTimeoutMs: 60_000 });

/** As the synthesis service sends it: the request's signal and its deadline. */
function request(withDeadline: boolean): ProviderSynthesisRequest {
  const signal = new AbortController().signal;
  return { model: 'm', voice: 'v', text: 'Hello.', format: 'pcm', signal, requestId: 'bench', ...(withDeadline ? { deadline: Date.now() + 60_000 } : {}) };
}

async function sample(provider: TtsProvider, withDeadline: boolean, into: number[]): Promise<void> {
  for (let call = 0; call < CALLS_PER_ROUND; call += 1) {
    const synthesisRequest = request(withDeadline);
    const started = performance.now();
    await provider.synthesize(synthesisRequest);
    into.push(performance.now() - started);
  }
}

async function main(): Promise<void> {
  const direct: number[] = [];
  const withDeadline: number[] = [];
  const withoutDeadline: number[] = [];
  // Warm-up: JIT both paths before measuring.
  await sample(instant, true, []);
  await sample(layered, true, []);
  await sample(layered, false, []);
  for (let round = 0; round < ROUNDS; round += 1) {
    await sample(instant, true, direct);
    await sample(layered, true, withDeadline);
    await sample(layered, false, withoutDeadline);
  }
  const base = median(direct);
  console.log(`resilience bench: ${ROUNDS * CALLS_PER_ROUND} calls per path, p50 per call`);
  console.log(`${'provider called directly (layer off)'.padEnd(46)} ${(base * 1000).toFixed(2).padStart(8)} µs`);
  for (const [label, values] of [
    ['through the layer, request with a deadline', withDeadline],
    ['through the layer, deadline set by the layer', withoutDeadline],
  ] as const) {
    const p50 = median(values);
    const added = p50 - base;
    const verdict = added <= BUDGET_MS ? 'within' : 'OVER';
    console.log(`${label.padEnd(46)} ${(p50 * 1000).toFixed(2).padStart(8)} µs   +${(added * 1000).toFixed(2)} µs (${verdict} the ${BUDGET_MS * 1000} µs budget), ${(p50 / base).toFixed(2)}x`);
  }
}

void main();
