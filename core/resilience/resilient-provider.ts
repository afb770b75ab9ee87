import { ConstantBackoff, handleType, retry, type RetryPolicy } from 'cockatiel';
import type { ResiliencePolicy } from '../../config/types';
import { LinkedAbort } from '../abort/linked-abort';
import type { ModelInfo, Logger, ProviderAudio, ProviderAudioStream, ProviderSynthesisRequest, TtsProvider, VoiceInfo } from '../plugin/contract';
import type { Metrics } from '../metrics/metrics';
import { checkedProviderAudio } from '../synthesis/checked-audio';
import { abortedByDeadline, deadlineError, pause, untilAborted } from './deadline';
import { withFirstChunk } from './first-chunk';
import { ProviderBreaker, type BreakerState } from './provider-breaker';
import { retryDelayMs } from './retry-delay';
import { isTransientFailure } from './transient-failure';

export interface ResilientProviderOptions {
  readonly instanceId: string;
  readonly policy: ResiliencePolicy;
  readonly logger: Logger;
  /** Deadline of a request that carries none, in milliseconds from its start (`synthesis.timeout`). */
  readonly defaultTimeoutMs: number;
  /** Source of the backoff jitter; tests pass a fixed one. */
  readonly random?: () => number;
  /** Told of every provider attempt, retry and breaker state change. */
  readonly metrics?: Metrics;
}

/** When a request's time is up, and a signal that aborts then (or when the caller cancels). */
interface Bounds {
  readonly signal: AbortSignal;
  readonly deadline: number;
  /** Lets go of the clock and the caller's signal, once the call (or the start of a stream) is over. */
  dispose(): void;
}

const NOTHING_TO_DISPOSE = (): void => undefined;

/** Thrown inside the retry loop when another attempt is planned; never leaves this file. */
class PlannedRetry extends Error {
  constructor(readonly failure: unknown) {
    super('retry planned');
  }
}

/**
 * A provider wrapped from the outside: breaker -> retry -> provider. Transient failures (network,
 * timeouts, 408/429/5xx, unusable audio) are retried with exponential backoff and full jitter,
 * honouring Retry-After, and never past the request's deadline; a stream only before its first
 * chunk. Other failures pass through at once. Listing calls pass through untouched.
 */
export class ResilientProvider implements TtsProvider {
  readonly synthesizeStream?: (request: ProviderSynthesisRequest) => Promise<ProviderAudioStream>;
  readonly warmUp?: () => Promise<void>;
  readonly close?: () => Promise<void>;
  private readonly retryPolicy: RetryPolicy;
  private readonly breaker?: ProviderBreaker;
  private readonly random: () => number;

  constructor(
    private readonly inner: TtsProvider,
    private readonly options: ResilientProviderOptions,
  ) {
    const { policy, instanceId, logger } = options;
    this.random = options.random ?? Math.random;
    this.retryPolicy = retry(handleType(PlannedRetry), { maxAttempts: policy.retries, backoff: new ConstantBackoff(0) });
    if (policy.breaker.failures > 0) this.breaker = new ProviderBreaker(instanceId, policy.breaker, logger, (state) => options.metrics?.breakerState(instanceId, state));
    const streaming = inner.synthesizeStream?.bind(inner);
    if (streaming) {
      this.synthesizeStream = (request) => this.run(request, async (attempt) => withFirstChunk(await streaming(attempt), instanceId), 'stream');
    }
    if (inner.warmUp) this.warmUp = inner.warmUp.bind(inner);
    if (inner.close) this.close = inner.close.bind(inner);
  }

  models(signal?: AbortSignal): Promise<readonly ModelInfo[]> {
    return this.inner.models(signal);
  }

  voices(model: string, signal?: AbortSignal): Promise<readonly VoiceInfo[]> {
    return this.inner.voices(model, signal);
  }

  synthesize(request: ProviderSynthesisRequest): Promise<ProviderAudio> {
    return this.run(request, async (attempt) => checkedProviderAudio(this.options.instanceId, await this.inner.synthesize(attempt)), 'call');
  }

  /** The circuit's state, for logs and metrics; `closed` when the breaker is switched off. */
  state(): BreakerState {
    return this.breaker?.state() ?? 'closed';
  }

  private run<T>(request: ProviderSynthesisRequest, attempt: (request: ProviderSynthesisRequest) => Promise<T>, kind: 'call' | 'stream'): Promise<T> {
    const bounds = this.bounds(request);
    // A call is cut at the deadline; a stream only until its first chunk (a slow reader may then make it last longer).
    const attemptRequest = kind === 'call' && bounds.signal !== request.signal ? { ...request, signal: bounds.signal, deadline: bounds.deadline } : request;
    const call = () => this.withRetries(attemptRequest, bounds, attempt);
    if (!this.breaker) return call().finally(bounds.dispose);
    const running = this.breaker.execute(call);
    // A half-open circuit makes callers wait for its trial: never past their own deadline.
    return (this.breaker.state() === 'half-open' ? untilAborted(running, bounds.signal, this.options.instanceId) : running).finally(bounds.dispose);
  }

  /** The request's deadline and a signal that aborts at it; a request without one gets the default. */
  private bounds(request: ProviderSynthesisRequest): Bounds {
    if (request.deadline !== undefined) return { signal: request.signal, deadline: request.deadline, dispose: NOTHING_TO_DISPOSE };
    const timeoutMs = this.options.defaultTimeoutMs;
    const bound = new LinkedAbort([request.signal], timeoutMs);
    return { signal: bound.signal, deadline: Date.now() + timeoutMs, dispose: () => bound.dispose() };
  }

  private async withRetries<T>(request: ProviderSynthesisRequest, bounds: Bounds, attempt: (request: ProviderSynthesisRequest) => Promise<T>): Promise<T> {
    const { instanceId, policy } = this.options;
    const { signal, deadline } = bounds;
    let delayMs = 0;
    try {
      return await this.retryPolicy.execute(async ({ attempt: retriesSoFar }) => {
        await pause(delayMs, signal, instanceId);
        try {
          // Each attempt on its own child signal: the provider's abort listeners go away with it.
          // A successful attempt keeps following the caller (a stream's body is read later); a
          // failed or abandoned one is told to stop and lets go.
          const started = process.hrtime.bigint();
          const child = new LinkedAbort([request.signal]);
          const result = await untilAborted(attempt({ ...request, signal: child.signal }), signal, instanceId).catch((error: unknown) => {
            child.abort(signal.aborted ? signal.reason : error);
            this.reportAttempt(started, error);
            throw error;
          });
          this.reportAttempt(started);
          return result;
        } catch (error) {
          const failure = abortedByDeadline(signal) ? deadlineError(instanceId, error) : error;
          // Once the deadline fired or the caller left, nothing more is tried (timers and clocks may disagree by a millisecond).
          if (signal.aborted || !isTransientFailure(failure) || retriesSoFar >= policy.retries) throw failure;
          delayMs = retryDelayMs(retriesSoFar + 1, failure, policy, this.random);
          // A retry that could only start after the deadline would be wasted: answer now.
          if (Date.now() + delayMs >= deadline) throw failure;
          this.options.metrics?.upstreamRetry(instanceId, (failure as { code?: string }).code ?? 'error');
          this.options.logger.debug('retrying provider call', { provider: instanceId, requestId: request.requestId, retry: retriesSoFar + 1, delayMs, code: (failure as { code?: string }).code });
          throw new PlannedRetry(failure);
        }
      });
    } catch (error) {
      throw error instanceof PlannedRetry ? error.failure : error;
    }
  }

  /** One provider attempt for the metrics: how long, and its error code when it failed. */
  private reportAttempt(started: bigint, error?: unknown): void {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const errorCode = error === undefined ? undefined : ((error as { code?: string }).code ?? 'error');
    this.options.metrics?.upstreamCall({ provider: this.options.instanceId, seconds, ...(errorCode !== undefined ? { errorCode } : {}) });
  }
}
