/** The time limit of `raceTimeLimit` passed before its work settled. */
export class TimeLimitExceeded extends Error {
  constructor(readonly limitMs: number) {
    super(`did not finish within ${limitMs / 1000} s`);
    this.name = 'TimeLimitExceeded';
  }
}

/**
 * Settles as `work` does, or rejects with a TimeLimitExceeded once `limitMs` has passed; the work
 * is then abandoned, and its own later failure is not left unhandled (one would end the process).
 * The timer is cleared as soon as the work settles, so it keeps the process alive only while the
 * work is pending, and at most `limitMs`. It is not unref'd: a stop waiting on a stuck close()
 * that holds nothing must not end by the event loop running dry, skipping the steps after it.
 */
export function raceTimeLimit<Value>(work: Promise<Value>, limitMs: number): Promise<Value> {
  return new Promise<Value>((resolve, reject) => {
    const timer = setTimeout(() => reject(new TimeLimitExceeded(limitMs)), limitMs);
    // Also the work's handler after the limit: a late failure then settles nothing and is not unhandled.
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
