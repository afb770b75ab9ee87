import { BrokenCircuitError, CircuitState, ConsecutiveBreaker, circuitBreaker, handleWhen, type CircuitBreakerPolicy, type IBackoff } from 'cockatiel';
import { gatewayError, type GatewayError } from '../errors';
import type { Logger } from '../plugin/contract';
import { isTransientFailure } from './transient-failure';

/** `closed`: calls go through; `open`: they fail fast; `half-open`: one trial call is running. */
export type BreakerState = 'closed' | 'open' | 'half-open';

export interface BreakerSettings {
  /** Consecutive failed requests that open the circuit. */
  readonly failures: number;
  /** How long it stays open before one trial request goes through. */
  readonly halfOpenAfterMs: number;
}

const STATE_NAMES: Readonly<Record<CircuitState, BreakerState>> = {
  [CircuitState.Closed]: 'closed',
  [CircuitState.Open]: 'open',
  [CircuitState.HalfOpen]: 'half-open',
  [CircuitState.Isolated]: 'open',
};

/** Failures of calls that their caller stopped (not the deadline): they say nothing of the provider. */
const stoppedByCaller = new WeakSet<object>();

/** Marks the failure of a call its caller stopped (its client left, another chunk of its text failed): the circuit leaves it out. */
export function stoppedByItsCaller(failure: unknown): void {
  if (typeof failure === 'object' && failure !== null) stoppedByCaller.add(failure);
}

/** Carries an opened stream out of cockatiel unrecorded (see `executeStream`). */
class StreamOpened {
  constructor(readonly value: unknown) {}
}

/**
 * The circuit breaker of one provider instance (cockatiel's ConsecutiveBreaker). Only transient
 * provider failures count; the client's own errors and cancellations neither open nor close it.
 * While open, calls fail fast with 503 TTS_ERR_UNAVAILABLE and a Retry-After until the trial.
 */
export class ProviderBreaker {
  private readonly policy: CircuitBreakerPolicy;
  /** The policy's count of failures in a row, kept to reset it without a run through the policy (see `streamEnded`). */
  private readonly consecutive: ConsecutiveBreaker;
  private openedAt = 0;
  /** When an open circuit lets its next call through as the trial. */
  private trialDueAt = 0;
  /** Set when a half-open trial ended without the provider's verdict (a client's error or cancellation). */
  private trialWithoutVerdict = false;

  constructor(
    private readonly instanceId: string,
    private readonly settings: BreakerSettings,
    logger: Logger,
    onStateChange: (state: BreakerState) => void = () => undefined,
  ) {
    // cockatiel closes the circuit when its trial fails with an error it does not handle (a client
    // that left, a bad voice): that says nothing of the provider. Such a trial is handled instead and
    // opens the circuit with the next trial due at once, so that one trial at a time goes on.
    const isFailure = (error: unknown): boolean => {
      if (error instanceof StreamOpened) return false;
      if (isTransientFailure(error) && !stoppedByCaller.has(error as object)) return true;
      this.trialWithoutVerdict = this.policy.state === CircuitState.HalfOpen;
      return this.trialWithoutVerdict;
    };
    const trialDue = (): IBackoff<unknown> => ({ duration: this.trialWithoutVerdict ? 0 : settings.halfOpenAfterMs, next: trialDue });
    this.consecutive = new ConsecutiveBreaker(settings.failures);
    this.policy = circuitBreaker(handleWhen(isFailure), {
      halfOpenAfter: { next: trialDue },
      breaker: this.consecutive,
    });
    this.policy.onBreak(() => {
      this.openedAt = Date.now();
    });
    this.policy.onStateChange((state) => {
      if (state === CircuitState.Open) this.trialDueAt = Date.now() + (this.trialWithoutVerdict ? 0 : settings.halfOpenAfterMs);
      const meta = { provider: instanceId, state: STATE_NAMES[state] };
      onStateChange(STATE_NAMES[state]);
      if (state === CircuitState.Open && this.trialWithoutVerdict) {
        this.trialWithoutVerdict = false;
        logger.info('circuit trial ended without a verdict (a client error or cancellation): the next call is the trial', meta);
      } else if (state === CircuitState.Open) logger.warn('circuit opened: calls fail fast until a trial', { ...meta, failures: settings.failures, halfOpenAfterMs: settings.halfOpenAfterMs });
      else if (state === CircuitState.HalfOpen) logger.info('circuit half-open: one trial call', meta);
      else logger.info('circuit closed', meta);
    });
  }

  state(): BreakerState {
    return STATE_NAMES[this.policy.state];
  }

  /**
   * Whether a call now would fail fast: the circuit is open and its trial not yet due. (cockatiel
   * leaves the circuit open past that time until a call comes, which then is the trial.)
   */
  refusesCalls(): boolean {
    return this.policy.state === CircuitState.Open && Date.now() < this.trialDueAt;
  }

  async execute<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await this.policy.execute(work);
    } catch (error) {
      if (error instanceof BrokenCircuitError) throw this.openError();
      throw error;
    }
  }

  /**
   * A stream's attempt: its verdict comes when the stream ends (`streamEnded`, `streamFailed`), not
   * at its first chunk. cockatiel records a result only when a call settles, and a success would
   * reset the consecutive count, so a provider that breaks every stream midway would never reach
   * it. While closed, an opened stream records nothing: it runs outside the policy, and only a
   * failure to open is taken through it (counted, the circuit opened at the threshold). Otherwise
   * the opened stream leaves cockatiel as an error it does not handle, which a half-open trial
   * takes as a pass (the provider answered), as a call's result.
   */
  async executeStream<T>(work: () => Promise<T>): Promise<T> {
    if (this.policy.state === CircuitState.Closed) {
      try {
        return await work();
      } catch (failure) {
        if (this.policy.state !== CircuitState.Closed) throw failure;
        return await this.policy.execute(() => Promise.reject(failure));
      }
    }
    const opened = await this.execute<never>(async () => {
      throw new StreamOpened(await work());
    }).catch((error: unknown) => {
      if (error instanceof StreamOpened) return error;
      throw error;
    });
    return opened.value as T;
  }

  /**
   * A stream that ended normally: a success, as a call's. Recorded only while closed: an open or
   * half-open circuit waits for its own trial's verdict.
   */
  streamEnded(): void {
    // What the policy does with a success while closed, without a promise and a run per stream.
    if (this.policy.state === CircuitState.Closed) this.consecutive.success();
  }

  /**
   * A stream that broke off after its first chunk: a failure when it would be one for a call
   * (transient, not stopped by its caller). Only while closed, as `streamEnded`.
   */
  streamFailed(failure: unknown): void {
    if (this.policy.state === CircuitState.Closed) this.policy.execute(() => Promise.reject(failure)).catch(() => undefined);
  }

  /** The refusal of a caller that will not wait for the trial under way (it has a fallback): a 503, retryable. */
  trialUnderWayError(): GatewayError {
    const reason = 'its circuit is half-open and its one trial call is under way; retry after 1 s';
    return gatewayError('TTS_ERR_UNAVAILABLE', { provider: this.instanceId, reason }, { details: [{ reason: 'circuit_half_open', provider: this.instanceId }], retryAfterSeconds: 1 });
  }

  private openError(): GatewayError {
    const remainingMs = this.openedAt + this.settings.halfOpenAfterMs - Date.now();
    const retryAfterSeconds = Math.max(1, Math.ceil(remainingMs / 1000));
    const reason = `its circuit is open after ${this.settings.failures} failed requests in a row; retry after ${retryAfterSeconds} s`;
    return gatewayError('TTS_ERR_UNAVAILABLE', { provider: this.instanceId, reason }, { details: [{ reason: 'circuit_open', provider: this.instanceId }], retryAfterSeconds });
  }
}
