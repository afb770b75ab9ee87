import { ConstantBackoff, handleType, retry, type RetryPolicy } from 'cockatiel';
import type { ResiliencePolicy } from '../../config/types';
import { LinkedAbort } from '../abort/linked-abort';
import { extended } from '../objects/extended';
import type { ModelInfo, Logger, ProviderAudio, ProviderAudioStream, ProviderSynthesisRequest, TtsProvider, VoiceInfo } from '../plugin/contract';
import type { Metrics } from '../metrics/metrics';
import { checkedProviderAudio } from '../synthesis/checked-audio';
import { abortedByDeadline, abortError, deadlineError, pause, untilAborted } from './deadline';
import { reportingLateFailure } from './late-stream-failure';
import { closeWhenItComes, streamAttempt } from './late-stream';
import { ProviderBreaker, stoppedByItsCaller, type BreakerState } from './provider-breaker';
import { RetryBudget } from './retry-budget';
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
  /** Told of every failed provider attempt, whatever model name the request used (an alias, a route's target). */
  readonly onFailure?: (error: unknown) => void;
}

/** When a request's time is up, and whether each attempt's signal must keep that clock itself. */
interface Bounds {
  readonly deadline: number;
  /** True when the request carries no deadline: its signal never aborts for time. */
  readonly ownClock: boolean;
  readonly kind: 'call' | 'stream';
}

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
  private readonly retryBudget = new RetryBudget();
  /**
   * Deadlines that have cut a call already, by their abort reason (one per request, shared by
   * its calls): a request's deadline cuts all its chunks' calls at once, and is one failure.
   */
  private readonly deadlinesCounted = new WeakSet<object>();

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
      this.synthesizeStream = async (request) =>
        reportingLateFailure(await this.run(request, (attempt) => streamAttempt(streaming, attempt, instanceId), 'stream', closeWhenItComes), request.signal, {
          failed: (error) => this.reportLateFailure(error),
          ended: () => this.breaker?.streamEnded(),
        });
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

  /** Whether a call now would fail fast (an open circuit whose trial is not due yet). */
  refusesCalls(): boolean {
    return this.breaker?.refusesCalls() ?? false;
  }

  /**
   * Whether a caller with another target to go to would be refused now: the circuit refuses
   * calls, or its one trial is under way (such a caller is refused rather than wait for it).
   */
  refusesCallersWithFallback(): boolean {
    return this.refusesCalls() || this.breaker?.state() === 'half-open';
  }

  /** `abandon`: told of an attempt given up on (deadline, caller gone) that may still settle: its late result is released. */
  private run<T>(request: ProviderSynthesisRequest, attempt: (request: ProviderSynthesisRequest) => Promise<T>, kind: 'call' | 'stream', abandon?: (work: Promise<T>) => void): Promise<T> {
    // A request without a deadline gets the default one.
    const bounds: Bounds = { deadline: request.deadline ?? Date.now() + this.options.defaultTimeoutMs, ownClock: request.deadline === undefined, kind };
    if (!this.breaker) return this.withRetries(request, bounds, attempt, abandon);
    // A caller with another target to go to does not wait for a trial under way (a hanging
    // provider's would hold it to its deadline, past any fallback): it is refused at once. A
    // stream's later call waits: its stream has begun, and can fall back no more.
    if (this.mayFallBack(request) && this.breaker.state() === 'half-open') return Promise.reject(this.breaker.trialUnderWayError());
    // The signal of this caller's wait for a half-open trial; set after `execute`, which starts the trial itself at once.
    let waitSignal: AbortSignal | undefined;
    const breaker = this.breaker;
    const execute = kind === 'stream' ? <R>(work: () => Promise<R>) => breaker.executeStream(work) : <R>(work: () => Promise<R>) => breaker.execute(work);
    const running = execute(() => {
      // A caller that gave up waiting was answered already: its call neither starts (work for
      // nobody) nor counts (its deadline error says nothing of the provider).
      if (!waitSignal?.aborted) return this.withRetries(request, bounds, attempt, abandon);
      const gaveUp = abortError(this.options.instanceId, waitSignal);
      stoppedByItsCaller(gaveUp);
      return Promise.reject(gaveUp);
    });
    if (this.breaker.state() !== 'half-open') return running;
    // A half-open circuit makes callers wait for its trial: never past their own deadline.
    const wait = this.boundedLink(request.signal, bounds);
    waitSignal = wait.signal;
    return untilAborted(running, wait.signal, this.options.instanceId)
      .catch((error: unknown) => {
        if (wait.signal.aborted) abandon?.(running);
        throw error;
      })
      .finally(() => wait.dispose());
  }

  /** A signal that follows `parent` and, when the clock is this layer's, aborts at the deadline. */
  private boundedLink(parent: AbortSignal, bounds: Bounds): LinkedAbort {
    return bounds.ownClock ? new LinkedAbort([parent], Math.max(0, bounds.deadline - Date.now())) : new LinkedAbort([parent]);
  }

  private async withRetries<T>(request: ProviderSynthesisRequest, bounds: Bounds, attempt: (request: ProviderSynthesisRequest) => Promise<T>, abandon?: (work: Promise<T>) => void): Promise<T> {
    const { instanceId, policy } = this.options;
    const { deadline } = bounds;
    let delayMs = 0;
    try {
      return await this.retryPolicy.execute(async ({ attempt: retriesSoFar }) => {
        // Each attempt (its pause first) on a signal of its own, which also keeps the deadline: the
        // provider's abort listeners go away with it, and a failed or abandoned attempt is told to
        // stop without stopping the next one. A successful stream keeps following the caller (its
        // body is read later), no longer the clock: a slow reader may make it last longer.
        const link = this.boundedLink(request.signal, bounds);
        const signal = link.signal;
        try {
          await pause(delayMs, signal, instanceId);
          const started = process.hrtime.bigint();
          // A call is cut at the deadline, and told when it is; a stream only until its first chunk.
          const attemptRequest = bounds.kind === 'call' && bounds.ownClock ? extended(request, { signal, deadline }) : { ...request, signal };
          const work = attempt(attemptRequest);
          const result = await untilAborted(work, signal, instanceId).catch((error: unknown) => {
            if (signal.aborted) abandon?.(work);
            // A call its caller stopped (client gone, a sibling chunk failed) did not fail at the provider: not counted.
            if (!signal.aborted || abortedByDeadline(signal)) this.reportAttempt(started, error);
            throw error;
          });
          this.reportAttempt(started);
          this.retryBudget.succeeded();
          if (bounds.kind === 'call') link.dispose();
          else link.stopClock();
          return result;
        } catch (error) {
          // Once the deadline fired or the caller left, nothing more is tried (timers and clocks may disagree by a millisecond).
          const stopped = signal.aborted;
          const byDeadline = abortedByDeadline(signal);
          const failure = byDeadline ? deadlineError(instanceId, error) : error;
          // Stopped by the caller, the call failed with the caller's reason (maybe another chunk's transient failure, counted once already).
          if (stopped && !byDeadline) stoppedByItsCaller(failure);
          if (byDeadline && !this.firstCutBy(signal.reason)) stoppedByItsCaller(failure);
          link.abort(stopped ? signal.reason : error);
          if (stopped || !isTransientFailure(failure)) throw failure;
          this.retryBudget.failed();
          if (retriesSoFar >= policy.retries) throw failure;
          if (!this.retryBudget.allowsRetry()) {
            this.options.logger.debug('retry budget spent: failure answered without a retry', { provider: instanceId, requestId: request.requestId, code: (failure as { code?: string }).code });
            throw failure;
          }
          delayMs = retryDelayMs(retriesSoFar + 1, failure, policy, this.random);
          // A retry that could only start after the deadline would be wasted: answer now. So would
          // a provider's wait past maxBackoff when another target can answer now: fall back to it.
          if (Date.now() + delayMs >= deadline) throw failure;
          if (this.mayFallBack(request) && delayMs > policy.maxBackoffMs) throw failure;
          this.options.metrics?.upstreamRetry(instanceId, (failure as { code?: string }).code ?? 'error');
          this.options.logger.debug('retrying provider call', { provider: instanceId, requestId: request.requestId, retry: retriesSoFar + 1, delayMs, code: (failure as { code?: string }).code });
          throw new PlannedRetry(failure);
        }
      });
    } catch (error) {
      throw error instanceof PlannedRetry ? error.failure : error;
    }
  }

  /** Whether the caller has another target to go to (a stream's later call has none: its stream has begun here). */
  private mayFallBack(request: ProviderSynthesisRequest): boolean {
    return request.fallbackAvailable === true && request.continuation !== true;
  }

  /** Whether this is the first call that `deadline` (an abort reason) cut; later ones of its request count no more. */
  private firstCutBy(deadline: unknown): boolean {
    if (typeof deadline !== 'object' || deadline === null) return true;
    if (this.deadlinesCounted.has(deadline)) return false;
    this.deadlinesCounted.add(deadline);
    return true;
  }

  /** A stream that failed after its first chunk: a failed call for the metrics, the provider's last error and its circuit. */
  private reportLateFailure(error: unknown): void {
    this.breaker?.streamFailed(error);
    this.options.metrics?.upstreamStreamFailed(this.options.instanceId, (error as { code?: string }).code ?? 'error');
    this.options.onFailure?.(error);
  }

  /** One provider attempt for the metrics: how long, and its error code when it failed. */
  private reportAttempt(started: bigint, error?: unknown): void {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const errorCode = error === undefined ? undefined : ((error as { code?: string }).code ?? 'error');
    this.options.metrics?.upstreamCall({ provider: this.options.instanceId, seconds, ...(errorCode !== undefined ? { errorCode } : {}) });
    if (error !== undefined) this.options.onFailure?.(error);
  }
}
