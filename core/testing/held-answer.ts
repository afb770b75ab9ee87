/**
 * An answer a provider stand-in holds back in the middle, for the streaming checks: the stand-in
 * has sent the first part of a synthesis answer and waits for the check to say what comes next.
 * Only the first call of `release` or `cut` counts; after the connection closed, neither does anything.
 */
export interface HeldAnswer {
  /** Sends the rest of the answer and ends it properly. */
  release(): void;
  /** Breaks the connection off where the answer is held, as a crashed server or a lost network would. */
  cut(): void;
  /** Settles when the plugin closes the connection while the answer is held (or before it ends). */
  readonly closedByConsumer: Promise<void>;
  /**
   * Optional, for stand-ins that can tell: settles when the plugin asks for more of the answer
   * than was sent before the hold. A plugin that waits for the whole answer then fails the check
   * at once instead of at the runner's timeout.
   */
  readonly awaitingRest?: Promise<void>;
}

/** A provider stand-in that can hold its next synthesis answer back after the first part. */
export interface StreamingStandIn {
  holdNextAnswer(): HeldAnswer;
}
