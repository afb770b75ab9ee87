/** Runs `sweep` every `intervalMs` on an unref'd timer, reporting failures; returns a stop function. */
export function startSweeper(sweep: () => Promise<number>, intervalMs: number, onError?: (error: unknown) => void): () => void {
  let running = false;
  const timer = setInterval(() => {
    // A slow sweep (a big bucket) must not overlap the next one.
    if (running) return;
    running = true;
    sweep()
      .catch((error: unknown) => onError?.(error))
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
