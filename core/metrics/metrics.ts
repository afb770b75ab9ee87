import type { BreakerState } from '../resilience/provider-breaker';

/**
 * What the gateway counts, as a port: core calls these methods and never imports a metrics
 * library; the server implements them with Prometheus (server/metrics/prometheus-metrics.ts).
 *
 * Label values are bounded sets chosen by the gateway: catalog model names, provider instance
 * ids, error codes, fixed outcome words. Never an API key, an email, a voice the client typed
 * or any of the text: a caller with an unknown model passes `UNKNOWN_LABEL`.
 */
export interface Metrics {
  /** One synthesis request ended (any route), with its outcome and duration from start to last byte. */
  synthesisFinished(event: SynthesisFinished): void;
  /** The first audio byte of a streamed synthesis went out, `seconds` after the request started. */
  synthesisFirstByte(labels: SynthesisLabels, seconds: number): void;
  /** One call to a provider ended: success, or the coded error it failed with. */
  upstreamCall(event: UpstreamCall): void;
  /** A provider stream failed after its first chunk (its call was counted a success then). */
  upstreamStreamFailed(provider: string, errorCode: string): void;
  /** Another attempt at a provider call is about to be made. */
  upstreamRetry(provider: string, reason: string): void;
  /** A cache was asked; `cache` names it (`results`, `voices`). */
  cacheLookup(cache: string, hit: boolean): void;
  /** A provider's circuit breaker changed state. */
  breakerState(provider: string, state: BreakerState): void;
  /** How many jobs wait for an audio worker (sampled: set it whenever it changes, or poll). */
  audioQueueDepth(depth: number): void;
}

/** For a model or provider the client named but the catalog does not know. */
export const UNKNOWN_LABEL = '(unknown)';

export interface SynthesisLabels {
  /** The catalog model name (or UNKNOWN_LABEL). */
  readonly model: string;
  /** The provider instance id that served it (or UNKNOWN_LABEL before one was chosen). */
  readonly provider: string;
}

/**
 * `success`; `client_error` (400/404/413/422: the request's fault); `rate_limited` (429);
 * `upstream_error` (the provider failed: 502, 503); `timeout` (504); `cancelled` (the client
 * left); `internal` (a bug).
 */
export type SynthesisOutcome = 'success' | 'client_error' | 'rate_limited' | 'upstream_error' | 'timeout' | 'cancelled' | 'internal';

export interface SynthesisFinished extends SynthesisLabels {
  readonly outcome: SynthesisOutcome;
  /** Input length in Unicode code points (counted for every outcome: it was asked for). */
  readonly characters: number;
  /** Seconds of audio produced; 0 when none. */
  readonly audioSeconds: number;
  readonly seconds: number;
}

export interface UpstreamCall {
  readonly provider: string;
  readonly seconds: number;
  /** Undefined on success; else the GatewayError code the call failed with. */
  readonly errorCode?: string;
}


/** Counts nothing: the default where no metrics are wanted (tests, tools). */
export const NO_METRICS: Metrics = {
  synthesisFinished: () => undefined,
  synthesisFirstByte: () => undefined,
  upstreamCall: () => undefined,
  upstreamStreamFailed: () => undefined,
  upstreamRetry: () => undefined,
  cacheLookup: () => undefined,
  breakerState: () => undefined,
  audioQueueDepth: () => undefined,
};
