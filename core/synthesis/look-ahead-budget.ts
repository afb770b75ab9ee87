/**
 * Provider calls run ahead of what the streams are sending, shared by every stream open at a
 * time. Calls ahead hide a call's latency when few streams run; when many run, the providers
 * and the audio engine are busy with the streams' current chunks anyway, and each call ahead
 * only holds finished audio in memory until its stream gets to it (about 1 MB per 400
 * characters of 22 kHz speech). Each stream gets an equal share, re-read at every chunk, so a
 * stream opened alone shrinks its look-ahead as others open and gets it back as they end.
 */
export class LookAheadBudget {
  private open = 0;

  /**
   * `callsAhead`: calls ahead for all streams together; `perStream`: the most calls one stream
   * runs at a time, the one it is waiting for included (at least 1).
   */
  constructor(
    private readonly callsAhead: number,
    private readonly perStream: number,
  ) {}

  /** Streams holding a share now. */
  get streams(): number {
    return this.open;
  }

  /** A share for one more stream: calls it may run at a time, until it is released. */
  join(): LookAheadShare {
    this.open += 1;
    let released = false;
    return {
      calls: () => (released ? 1 : this.callsPerStream()),
      release: () => {
        if (released) return;
        released = true;
        this.open -= 1;
      },
    };
  }

  private callsPerStream(): number {
    const ahead = Math.floor(this.callsAhead / Math.max(1, this.open));
    return Math.max(1, Math.min(this.perStream, 1 + ahead));
  }
}

export interface LookAheadShare {
  /** Calls the stream may run at a time now, the one it is waiting for included (1 = none ahead). */
  calls(): number;
  /** Gives the share back; idempotent. */
  release(): void;
}
