import { setMaxListeners } from 'node:events';

/**
 * Provider calls for a stream's chunks, started in order, at most `depth()` at a time counting the
 * chunk being consumed (read again at each chunk, as a shared budget may change it), so the next
 * audio is ready when it is needed while memory stays bounded. The first
 * call runs alone (the others start once it answered), so the first audio is not slowed down by
 * the work behind it. The first failure cancels every call still running.
 */
export class LookAheadCalls<Result> {
  /** Calls started and not taken yet; taken ones are dropped so their audio can be freed. */
  private readonly pending = new Map<number, Promise<Result>>();
  private nextToStart = 0;
  private readonly cancelAll = new AbortController();

  constructor(
    private readonly count: number,
    private readonly depth: () => number,
    private readonly call: (index: number, signal: AbortSignal) => Promise<Result>,
  ) {
    // Every call is handed this one signal and may listen to it: one listener per chunk by design.
    setMaxListeners(count + 1, this.cancelAll.signal);
  }

  /** The result of call `index`; calls must be taken in order. */
  take(index: number): Promise<Result> {
    this.startUpTo(index === 0 ? Math.min(this.count, 1) : Math.min(this.count, index + Math.max(1, this.depth())));
    const result = this.pending.get(index);
    if (!result) throw new RangeError(`chunk ${index} was taken already or does not exist`);
    this.pending.delete(index);
    return result;
  }

  /** Stops every call still running (their results are dropped). */
  cancel(reason?: unknown): void {
    this.cancelAll.abort(reason);
  }

  private startUpTo(end: number): void {
    for (; this.nextToStart < end; this.nextToStart += 1) {
      const promise = this.call(this.nextToStart, this.cancelAll.signal);
      // A call that fails while nobody awaits it yet must not be an unhandled rejection.
      promise.catch((error: unknown) => this.cancel(error));
      if (this.nextToStart === 0) promise.then(() => this.startUpTo(Math.min(this.count, Math.max(1, this.depth()))), () => undefined);
      this.pending.set(this.nextToStart, promise);
    }
  }
}
