/** A counter's value in its current window. */
export interface WindowCount {
  readonly count: number;
  /** Milliseconds until the window ends and the count starts again from zero (0 = no window open). */
  readonly msBeforeReset: number;
}

/** Points to add to one counter, but only while its count stays within `quota`. */
export interface BoundedAddition {
  readonly key: string;
  readonly points: number;
  readonly windowSeconds: number;
  readonly quota: number;
  /**
   * The count a window opens with when none is open (0 by default): what was used before this
   * store counted (a daily quota's characters written before a restart). An open window keeps its own.
   */
  readonly openingCount?: number;
}

/** What `addWithinQuotas` did. */
export interface BoundedAdditionResult {
  /** True: every count stayed within its quota and every addition was made; false: none was. */
  readonly added: boolean;
  /** Each counter's count, in the order asked: after the additions, or as it was when none was made. */
  readonly counts: readonly WindowCount[];
  /**
   * Takes points back off in the store that counted them (a refund). The same store, not the
   * counters' current one: a count made in Redis is not refunded in memory during an outage.
   */
  subtract(key: string, points: number, windowSeconds: number): Promise<void>;
}

/**
 * Counters in fixed windows, by key: the shared state behind request limits, quotas and login
 * throttling. A window opens with a key's first point and lasts `windowSeconds`. The gateway
 * holds them in memory; a shared store (Redis) implements the same port for replicas.
 */
export interface WindowCounters {
  /** Adds `points` to the key's count and answers the new count. */
  add(key: string, points: number, windowSeconds: number): Promise<WindowCount>;
  /**
   * Adds each addition's points only if every counter stays within its quota, as one step that
   * no other addition sees half done: a request refused for one limit is never counted against
   * another, even for a moment.
   */
  addWithinQuotas(additions: readonly BoundedAddition[]): Promise<BoundedAdditionResult>;
  /** Takes points back off (a failed request); a window that has ended has nothing to take back. */
  subtract(key: string, points: number, windowSeconds: number): Promise<void>;
  /** The count as it is, unchanged. */
  peek(key: string, windowSeconds: number): Promise<WindowCount>;
  /** Forgets the key. */
  reset(key: string, windowSeconds: number): Promise<void>;
  /**
   * Tells the listener each time counts may have been lost (a shared store reconnected, perhaps
   * restarted empty): windows that open with an opening count should have it read again.
   */
  onCountsLost?(listener: () => void): void;
}
