/** What a pin needs to know of its pool's worker slots. */
export interface PinnedSlot {
  /** Bumped when the worker is replaced: pins of an older generation lost their state. */
  generation: number;
  pins: number;
}

/**
 * A claim on one worker of a pool, for work whose state lives in that worker (a stream):
 * tasks run with it go to that worker only, waiting while it is busy.
 */
export class WorkerPin {
  private released = false;

  constructor(
    private readonly slots: readonly PinnedSlot[],
    /** Index of the worker in its pool. */
    readonly worker: number,
    readonly generation: number,
    /** Told when the claim is given back (the pool may then replace an idle worker). */
    private readonly onRelease: () => void = () => undefined,
  ) {}

  /** False once that worker crashed or was replaced (its state is gone), or the pin was released. */
  get alive(): boolean {
    return !this.released && !this.crashed;
  }

  get crashed(): boolean {
    return this.slots[this.worker].generation !== this.generation;
  }

  get isReleased(): boolean {
    return this.released;
  }

  belongsTo(slots: readonly PinnedSlot[]): boolean {
    return slots === this.slots;
  }

  /** Gives the claim back, so new pins spread to less loaded workers. Idempotent. */
  release(): void {
    if (!this.alive) return;
    this.released = true;
    this.slots[this.worker].pins -= 1;
    this.onRelease();
  }
}
