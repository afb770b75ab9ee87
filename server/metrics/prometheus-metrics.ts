import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { BreakerState, Metrics, SynthesisFinished, SynthesisLabels, UpstreamCall } from '../../core';
import { LabelGuard } from './label-guard';

const PREFIX = 'tts_gateway_';
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const SYNTHESIS_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120];
const FIRST_BYTE_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30];
const BREAKER_VALUES: Readonly<Record<BreakerState, number>> = { closed: 0, 'half-open': 1, open: 2 };

export interface PrometheusMetricsOptions {
  /** Node's process metrics (CPU, memory, event loop, GC); one registry per process should have them. */
  readonly processMetrics?: boolean;
}

/** The one observation the HTTP middleware makes per request. */
export interface HttpObservation {
  readonly method: string;
  /** The route pattern (`/api/v1/tools/voices/:model`), never the URL. */
  readonly route: string;
  readonly status: number;
  readonly seconds: number;
}

/**
 * Core's Metrics port on prom-client, plus the HTTP metrics. Every metric is registered at
 * construction, so `/metrics` names them all from the first scrape.
 */
export class PrometheusMetrics implements Metrics {
  readonly registry = new Registry();
  private readonly guard = new LabelGuard();
  private readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  private readonly httpDuration: Histogram<'method' | 'route'>;
  private readonly httpInFlight: Gauge;
  private readonly synthesisRequests: Counter<'model' | 'provider' | 'outcome'>;
  private readonly synthesisCharacters: Counter<'model' | 'provider'>;
  private readonly synthesisAudioSeconds: Counter<'model' | 'provider'>;
  private readonly synthesisDuration: Histogram<'model' | 'provider' | 'outcome'>;
  private readonly synthesisFirstByteSeconds: Histogram<'model' | 'provider'>;
  private readonly upstreamDuration: Histogram<'provider' | 'outcome'>;
  private readonly upstreamErrors: Counter<'provider' | 'code'>;
  private readonly upstreamRetries: Counter<'provider' | 'reason'>;
  private readonly cacheHits: Counter<'cache'>;
  private readonly cacheMisses: Counter<'cache'>;
  private readonly breaker: Gauge<'provider'>;
  private readonly audioQueue: Gauge;

  constructor(options: PrometheusMetricsOptions = {}) {
    const registers = [this.registry];
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
    this.httpRequests = new Counter({ name: `${PREFIX}http_requests_total`, help: 'HTTP requests answered, by route pattern and status', labelNames: ['method', 'route', 'status'], registers });
    this.httpDuration = new Histogram({ name: `${PREFIX}http_request_duration_seconds`, help: 'HTTP request latency, to the last byte', labelNames: ['method', 'route'], buckets: LATENCY_BUCKETS, registers });
    this.httpInFlight = new Gauge({ name: `${PREFIX}http_requests_in_flight`, help: 'HTTP requests being answered', registers });
    this.synthesisRequests = new Counter({ name: `${PREFIX}synthesis_requests_total`, help: 'Synthesis requests, by model, provider and outcome', labelNames: ['model', 'provider', 'outcome'], registers });
    this.synthesisCharacters = new Counter({ name: `${PREFIX}synthesis_characters_total`, help: 'Characters (code points) asked to be synthesized', labelNames: ['model', 'provider'], registers });
    this.synthesisAudioSeconds = new Counter({ name: `${PREFIX}synthesis_audio_seconds_total`, help: 'Seconds of audio synthesized', labelNames: ['model', 'provider'], registers });
    this.synthesisDuration = new Histogram({ name: `${PREFIX}synthesis_duration_seconds`, help: 'Synthesis latency, request to last byte', labelNames: ['model', 'provider', 'outcome'], buckets: SYNTHESIS_BUCKETS, registers });
    this.synthesisFirstByteSeconds = new Histogram({ name: `${PREFIX}synthesis_time_to_first_byte_seconds`, help: 'Streamed synthesis: request to first audio byte', labelNames: ['model', 'provider'], buckets: FIRST_BYTE_BUCKETS, registers });
    this.upstreamDuration = new Histogram({ name: `${PREFIX}upstream_request_duration_seconds`, help: 'Provider call latency', labelNames: ['provider', 'outcome'], buckets: LATENCY_BUCKETS, registers });
    this.upstreamErrors = new Counter({ name: `${PREFIX}upstream_errors_total`, help: 'Failed provider calls, by error code (a stream that broke off after its first audio too)', labelNames: ['provider', 'code'], registers });
    this.upstreamRetries = new Counter({ name: `${PREFIX}upstream_retries_total`, help: 'Provider calls retried', labelNames: ['provider', 'reason'], registers });
    this.cacheHits = new Counter({ name: `${PREFIX}cache_hits_total`, help: 'Cache lookups that found an entry', labelNames: ['cache'], registers });
    this.cacheMisses = new Counter({ name: `${PREFIX}cache_misses_total`, help: 'Cache lookups that found none', labelNames: ['cache'], registers });
    this.breaker = new Gauge({ name: `${PREFIX}breaker_state`, help: 'Circuit breaker per provider: 0 closed, 1 half-open, 2 open', labelNames: ['provider'], registers });
    this.audioQueue = new Gauge({ name: `${PREFIX}audio_worker_queue_depth`, help: 'Audio jobs waiting for a worker thread', registers });
  }

  /** The Prometheus text exposition of every metric. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  httpStarted(): void {
    this.httpInFlight.inc();
  }

  httpFinished(observation: HttpObservation): void {
    const route = this.guard.value('route', observation.route);
    this.httpInFlight.dec();
    this.httpRequests.inc({ method: observation.method, route, status: String(observation.status) });
    this.httpDuration.observe({ method: observation.method, route }, observation.seconds);
  }

  /** A request Node refused before the app read it (server/unread-refusals.ts): neither method nor route is known. */
  httpUnread(status: number): void {
    this.httpRequests.inc({ method: '(unread)', route: '(unread)', status: String(status) });
  }

  synthesisFinished(event: SynthesisFinished): void {
    const labels = this.synthesisLabels(event);
    const withOutcome = { model: labels.model, provider: labels.provider, outcome: event.outcome };
    this.synthesisRequests.inc(withOutcome);
    this.synthesisDuration.observe(withOutcome, event.seconds);
    if (event.characters > 0) this.synthesisCharacters.inc(labels, event.characters);
    if (event.audioSeconds > 0) this.synthesisAudioSeconds.inc(labels, event.audioSeconds);
  }

  synthesisFirstByte(labels: SynthesisLabels, seconds: number): void {
    this.synthesisFirstByteSeconds.observe(this.synthesisLabels(labels), seconds);
  }

  upstreamCall(event: UpstreamCall): void {
    const provider = this.guard.value('provider', event.provider);
    this.upstreamDuration.observe({ provider, outcome: event.errorCode === undefined ? 'success' : 'error' }, event.seconds);
    if (event.errorCode !== undefined) this.upstreamErrors.inc({ provider, code: this.guard.value('code', event.errorCode) });
  }

  upstreamStreamFailed(provider: string, errorCode: string): void {
    this.upstreamErrors.inc({ provider: this.guard.value('provider', provider), code: this.guard.value('code', errorCode) });
  }

  upstreamRetry(provider: string, reason: string): void {
    this.upstreamRetries.inc({ provider: this.guard.value('provider', provider), reason: this.guard.value('reason', reason) });
  }

  cacheLookup(cache: string, hit: boolean): void {
    (hit ? this.cacheHits : this.cacheMisses).inc({ cache: this.guard.value('cache', cache) });
  }

  breakerState(provider: string, state: BreakerState): void {
    this.breaker.set({ provider: this.guard.value('provider', provider) }, BREAKER_VALUES[state]);
  }

  audioQueueDepth(depth: number): void {
    this.audioQueue.set(depth);
  }

  private synthesisLabels(labels: SynthesisLabels): { model: string; provider: string } {
    return { model: this.guard.value('model', labels.model), provider: this.guard.value('provider', labels.provider) };
  }
}
