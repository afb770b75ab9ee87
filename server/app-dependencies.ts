import type { Logger } from 'winston';
import type { GatewayConfig } from '../config/types';
import type { AccountService, AudioStore, LoginThrottle, ResultLookup, SynthesisLimiter, SynthesisContext, SynthesisRequest, SynthesisResult, SynthesisStream, VoiceInfo } from '../core';
import type { PrometheusMetrics } from './metrics/prometheus-metrics';
import type { ReadinessProbes } from './operations/readiness';

/** A validated body of POST /api/v1/common/tts-sync, defaults applied (core's type). */
export type { SynthesisRequest };

/** Core's: who asks (the route always names the account) and how to stop. */
export type { SynthesisContext, SynthesisResult };

/** Synthesizes and stores one request; failures are GatewayErrors (404, 422, 429, 502, 503, 504). */
export type SynthesizeFunction = (request: SynthesisRequest, context: SynthesisContext) => Promise<SynthesisResult>;

/** Streams one request's audio as it is made; resolves once the first audio is ready. */
export type StreamFunction = (request: SynthesisRequest, context: SynthesisContext) => Promise<SynthesisStream>;

/** One served model (or alias) and who serves it, for OpenAI's model list. */
export interface ModelEntry {
  readonly id: string;
  /** The provider instance, or `tts-gateway` for an alias. */
  readonly ownedBy: string;
}

/** Model names, sorted by provider then name. */
export type ListModelsFunction = () => Promise<readonly string[]>;

/** Voices of one model; throws a 404 GatewayError for an unknown model. */
export type ListVoicesFunction = (model: string, signal?: AbortSignal) => Promise<readonly VoiceInfo[]>;

/**
 * Everything the HTTP layer needs, as a plain object: the composition root builds it from the
 * container, tests build it by hand with fakes.
 */
export interface AppDependencies {
  readonly config: GatewayConfig;
  readonly logger: Logger;
  readonly accounts: AccountService;
  readonly audioStore: AudioStore;
  readonly listModels: ListModelsFunction;
  readonly listVoices: ListVoicesFunction;
  readonly synthesize: SynthesizeFunction;
  readonly stream: StreamFunction;
  /** Starts the result cache's lookup for a request, passed to `synthesize` or `stream` in its context; absent when the cache is off. */
  readonly lookUpResult?: (request: SynthesisRequest) => ResultLookup;
  /** Every model and alias with its owner, in the order of `listModels`. */
  readonly listModelEntries: () => Promise<readonly ModelEntry[]>;
  /** When the gateway started, in Unix seconds (OpenAI's `created`). */
  readonly startedAt: number;
  /** Requests per minute and characters per day of every synthesis route. */
  readonly limiter: SynthesisLimiter;
  /** Failed logins and registrations per email and client address. */
  readonly loginThrottle: LoginThrottle;
  /** Counts HTTP requests; GET /metrics shows it. Core's `Metrics` port, implemented with prom-client. */
  readonly metrics: PrometheusMetrics;
  /** What GET /health/ready checks. */
  readonly readiness: ReadinessProbes;
}
