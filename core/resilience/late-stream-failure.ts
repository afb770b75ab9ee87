import type { ProviderAudioStream } from '../plugin/contract';

/**
 * A provider stream whose failure after its first chunk is reported. Its attempt was counted a
 * success when that chunk came (a stream is retried only before it), so a provider that breaks
 * off midway (a cut connection, a stall past its timeoutMs) would otherwise never show as a
 * failed call. A caller that stopped (its signal aborted, or it stopped reading) is no failure of
 * the provider's.
 */
export function reportingLateFailure(stream: ProviderAudioStream, signal: AbortSignal, report: (error: unknown) => void): ProviderAudioStream {
  return { ...stream, chunks: new LateFailureReporter(stream.chunks[Symbol.asyncIterator](), signal, report) };
}

/** A class, as FirstThenRest is (core/http/upstream-stream.ts): an object literal with an iterator key is slow in V8. */
class LateFailureReporter implements AsyncIterableIterator<Uint8Array> {
  constructor(
    private readonly iterator: AsyncIterator<Uint8Array>,
    private readonly signal: AbortSignal,
    private readonly report: (error: unknown) => void,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<Uint8Array>> {
    return this.iterator.next().then(undefined, this.failed);
  }

  async return(): Promise<IteratorResult<Uint8Array>> {
    await this.iterator.return?.();
    return { done: true, value: undefined };
  }

  private readonly failed = (error: unknown): never => {
    if (!this.signal.aborted) this.report(error);
    throw error;
  };
}
