/**
 * Settles as `work` does, or rejects with `reason()` as soon as `signal` aborts; the work is then
 * abandoned, and its own later failure is not left unhandled (one would end the process). One
 * listener, removed when the work settles.
 */
export function raceAbort<Value>(work: Promise<Value>, signal: AbortSignal, reason: () => unknown): Promise<Value> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(reason());
  }
  return new Promise<Value>((resolve, reject) => {
    const onAbort = (): void => reject(reason());
    signal.addEventListener('abort', onAbort);
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
