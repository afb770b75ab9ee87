import type { ProviderAudioStream } from '../plugin/contract';

/**
 * A provider stream whose failure after its first chunk is reported (to the metrics, the health
 * and the circuit), and its normal end too (the circuit's success). Its attempt ended when that
 * chunk came (a stream is retried only before it), so a provider that breaks off midway (a cut
 * connection, a stall past its timeoutMs) would otherwise never show as a failed call. A caller
 * that stopped (its signal aborted, or it stopped reading) is no failure of the provider's.
 */
export function reportingLateFailure(stream: ProviderAudioStream, signal: AbortSignal, outcome: StreamOutcome): ProviderAudioStream {
  return { ...stream, chunks: new LateFailureReporter(stream.chunks[Symbol.asyncIterator](), signal, outcome) };
}

/**
 * Told how a stream ended, once: `failed` when it broke off, `ended` when it ran to its end. A
 * stream its caller stopped (left, or cut at a limit of the gateway's) is told neither: that
 * says nothing of the provider.
 */
export interface StreamOutcome {
  failed(error: unknown): void;
  ended(): void;
}

/** A class, as FirstThenRest is (core/http/upstream-stream.ts): an object literal with an iterator key is slow in V8. */
class LateFailureReporter implements AsyncIterableIterator<Uint8Array> {
  constructor(
    private readonly iterator: AsyncIterator<Uint8Array>,
    private readonly signal: AbortSignal,
    private readonly outcome: StreamOutcome,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<Uint8Array>> {
    return this.iterator.next().then(this.passed, this.failed);
  }

  async return(): Promise<IteratorResult<Uint8Array>> {
    await this.iterator.return?.();
    return { done: true, value: undefined };
  }

  private settled = false;

  /** True the first time only: a consumer may call next() again after the end. */
  private unsettled(): boolean {
    const first = !this.settled;
    this.settled = true;
    return first;
  }

  private readonly passed = (result: IteratorResult<Uint8Array>): IteratorResult<Uint8Array> => {
    if (result.done === true && !this.signal.aborted && this.unsettled()) this.outcome.ended();
    return result;
  };

  private readonly failed = (error: unknown): never => {
    if (!this.signal.aborted && this.unsettled()) this.outcome.failed(error);
    throw error;
  };
}
