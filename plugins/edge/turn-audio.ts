/**
 * The audio of one turn as the socket delivers it: pieces are queued until the consumer reads
 * them (a turn is one chunk of at most 1,500 characters, some 100 KB of mp3, so the queue stays
 * small), the end or a failure is handed on in order, and a consumer that stops reading closes
 * the turn.
 */
export class TurnAudio implements AsyncIterable<Uint8Array>, AsyncIterator<Uint8Array> {
  private readonly pieces: Uint8Array[] = [];
  private ended = false;
  private failure?: Error;
  private waiting?: { resolve: (result: IteratorResult<Uint8Array>) => void; reject: (error: Error) => void };

  /** `stop` closes the turn when the consumer stops reading. */
  constructor(private readonly stop: () => void) {}

  push(piece: Uint8Array): void {
    if (this.waiting) this.settle({ value: piece, done: false });
    else this.pieces.push(piece);
  }

  end(): void {
    this.ended = true;
    if (this.waiting) this.settle({ value: undefined, done: true });
  }

  /** The audio is broken: pieces not yet read are dropped and the consumer gets the error next. */
  fail(error: Error): void {
    this.failure = error;
    this.pieces.length = 0;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(error);
  }

  next(): Promise<IteratorResult<Uint8Array>> {
    const piece = this.pieces.shift();
    if (piece) return Promise.resolve({ value: piece, done: false });
    if (this.failure) return Promise.reject(this.failure);
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  async return(): Promise<IteratorResult<Uint8Array>> {
    this.ended = true;
    this.pieces.length = 0;
    this.stop();
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    return this;
  }

  private settle(result: IteratorResult<Uint8Array>): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.resolve(result);
  }
}
