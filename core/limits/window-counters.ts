/** A counter's value in its current window. */
export interface WindowCount {
  readonly count: number;
  /** Milliseconds until the window ends and the count starts again from zero (0 = no window open). */
  readonly msBeforeReset: number;
}

/**
 * Counters in fixed windows, by key: the shared state behind request limits, quotas and login
 * throttling. A window opens with a key's first point and lasts `windowSeconds`. The gateway
 * holds them in memory today; a shared store (Redis) implements the same port for replicas.
 */
export interface WindowCounters {
  /** Adds `points` to the key's count and answers the new count. */
  add(key: string, points: number, windowSeconds: number): Promise<WindowCount>;
  /** Takes points back off (a refused or failed request). */
  subtract(key: string, points: number, windowSeconds: number): Promise<void>;
  /** The count as it is, unchanged. */
  peek(key: string, windowSeconds: number): Promise<WindowCount>;
  /** Forgets the key. */
  reset(key: string, windowSeconds: number): Promise<void>;
}
