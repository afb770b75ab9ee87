/** What the holder needs of an engine: whether it may serve another synthesis. */
export interface HeldEngine {
  readonly usable: boolean;
}

/**
 * A worker thread's one engine: loaded at the first task, kept for the next ones, and loaded
 * afresh after a load that failed (a passing failure would otherwise fail every task of the
 * thread until it stopped) or a synthesis that left the engine unusable.
 */
export class EngineHolder<Engine extends HeldEngine> {
  private pending: Promise<Engine> | undefined;
  private loaded: Engine | undefined;

  constructor(private readonly load: () => Promise<Engine>) {}

  /** The engine, once loaded (for the memory report). */
  get current(): Engine | undefined {
    return this.loaded;
  }

  get(): Promise<Engine> {
    this.pending ??= this.load().then(
      (engine) => (this.loaded = engine),
      (error: unknown) => {
        this.pending = undefined;
        throw error;
      },
    );
    return this.pending;
  }

  /** Lets go of `engine` if a synthesis left it unusable: the next task loads a fresh one. */
  releaseIfUnusable(engine: Engine): void {
    if (engine.usable || this.loaded !== engine) return;
    this.pending = undefined;
    this.loaded = undefined;
  }
}
