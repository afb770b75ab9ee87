import type { Response } from 'express';
import { abortedByDeadline, LinkedAbort, raceAbort, storageTimedOut } from '../../core';
import { abortOnDisconnect, type DisconnectSignal } from '../abort-on-disconnect';

/**
 * A download's time to its first byte: the store must find the file and start sending it within
 * `limitMs` (a stalled S3, a hung mount answers 503 instead of holding the request), while the
 * transfer that follows has no limit of its own (a large file to a slow client may take long).
 * A client that leaves stops the read at any point.
 */
export class FirstByteDeadline {
  private readonly disconnect: DisconnectSignal;
  private readonly bound: LinkedAbort;

  constructor(
    response: Response,
    private readonly limitMs: number,
  ) {
    this.disconnect = abortOnDisconnect(response);
    this.bound = new LinkedAbort([this.disconnect.signal], limitMs);
  }

  /** Stops the store's read: at the deadline before the first byte, and when the client leaves. */
  get signal(): AbortSignal {
    return this.bound.signal;
  }

  /**
   * The store's step (locate, open) within the deadline, even for a store that does not heed the
   * signal: past it, 503 TTS_ERR_UNAVAILABLE; the client gone, its cancellation.
   */
  step<Value>(work: Promise<Value>): Promise<Value> {
    return raceAbort(work, this.signal, () => this.stopped()).catch((error: unknown) => Promise.reject(this.signal.aborted ? this.stopped() : error));
  }

  /** The bytes are on their way: the clock stops, the client's leaving still ends the read. */
  met(): void {
    this.bound.stopClock();
  }

  /** The answer is over: lets go of the response and the clock. */
  dispose(): void {
    this.bound.dispose();
    this.disconnect.dispose();
  }

  private stopped(): unknown {
    return abortedByDeadline(this.signal) ? storageTimedOut(this.limitMs) : this.signal.reason;
  }
}
