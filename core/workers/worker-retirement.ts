import type { Worker } from 'node:worker_threads';
import { isIdle, nextGeneration, type WorkerSlot } from './worker-slot';

export interface RetirementSettings {
  /** Replace an idle worker whose WebAssembly memories passed this many bytes. Absent: never. */
  readonly recycleAboveBytes?: number;
  /** Stop a worker left without task or pin this long. Absent: workers run until the pool closes. */
  readonly idleMs?: number;
  /** Stop a worker without work after this instead while another runs, or after a burst. Absent: `idleMs`. */
  readonly surplusIdleMs?: number;
}

/** What retirement needs of its pool. */
export interface RetirementHost {
  isClosed(): boolean;
  /** Starts the worker of a slot. */
  spawn(index: number): Worker;
  /** Gives waiting tasks to free workers. */
  dispatch(): void;
}

/**
 * Gives memory back after work. WebAssembly memories never shrink, so a worker grown past
 * `recycleAboveBytes` is replaced once idle; with `idleMs`, a worker without work stops (its
 * thread, heap and memories go back to the system) until work comes. Workers holding pins keep
 * state for open streams and are never touched.
 */
export class WorkerRetirement {
  private recycledCount = 0;
  private stoppedIdleCount = 0;
  /** A worker was started while another ran, and some have run since: each goes after `surplusIdleMs`. */
  private afterBurst = false;

  constructor(
    private readonly slots: WorkerSlot[],
    private readonly settings: RetirementSettings,
    private readonly host: RetirementHost,
  ) {}

  /** Workers replaced because their memory passed the threshold. */
  get recycled(): number {
    return this.recycledCount;
  }

  /** Workers stopped after `idleMs` without work. */
  get stoppedIdle(): number {
    return this.stoppedIdleCount;
  }

  /** A stopped slot's worker was started for work: beside a running one, that makes a burst. */
  started(index: number): void {
    if (this.othersRun(index)) this.afterBurst = true;
  }

  /** A worker finished a task or lost a pin: replace it if it grew, and arm its idle stop. */
  afterWork(index: number): void {
    this.recycleIfIdle(index);
    const slot = this.slots[index];
    const idleMs = this.idleWaitMs(index);
    if (this.host.isClosed() || idleMs === undefined || !isIdle(slot)) return;
    clearTimeout(slot.idleTimer);
    slot.idleTimer = setTimeout(() => void this.stopIfIdle(index), idleMs);
    slot.idleTimer.unref();
  }

  /** Stops a worker still without a task or pin; the next task for its slot starts a new one. */
  async stopIfIdle(index: number): Promise<void> {
    const slot = this.slots[index];
    if (this.host.isClosed() || !isIdle(slot)) return;
    const old = slot.worker;
    // Emptied first, so its exit is not taken for a crash.
    this.slots[index] = nextGeneration(slot);
    this.stoppedIdleCount += 1;
    if (!this.slots.some((other) => other.worker !== undefined)) this.afterBurst = false;
    await old?.terminate();
  }

  /** The surplus wait beside running workers or after a burst; the full one for the worker of steady use. */
  private idleWaitMs(index: number): number | undefined {
    const { idleMs, surplusIdleMs } = this.settings;
    if (idleMs === undefined || surplusIdleMs === undefined) return idleMs;
    return this.afterBurst || this.othersRun(index) ? Math.min(surplusIdleMs, idleMs) : idleMs;
  }

  private othersRun(index: number): boolean {
    return this.slots.some((slot, other) => other !== index && slot.worker !== undefined);
  }

  /** Replaces an idle worker without pins whose memory grew past the threshold. */
  private recycleIfIdle(index: number): void {
    const slot = this.slots[index];
    const threshold = this.settings.recycleAboveBytes;
    if (this.host.isClosed() || threshold === undefined || !isIdle(slot) || slot.wasmBytes <= threshold) return;
    const old = slot.worker;
    clearTimeout(slot.idleTimer);
    // With idle stops, the replacement starts when work comes; without, at once (ready for it).
    this.slots[index] = nextGeneration(slot, this.settings.idleMs === undefined ? this.host.spawn(index) : undefined);
    this.recycledCount += 1;
    // Its replacement is in the slot already, so this exit is not taken for a crash.
    void old?.terminate();
    this.host.dispatch();
  }
}
