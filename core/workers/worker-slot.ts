import type { Worker } from 'node:worker_threads';
import type { PendingTask } from './pending-task';
import type { PinnedSlot } from './worker-pin';

/** One place in a pool: its worker thread while it runs, the task on it and what it has used. */
export interface WorkerSlot extends PinnedSlot {
  /** Absent while stopped for idleness (`idleMs`): started again by the next task for it. */
  worker?: Worker;
  current?: PendingTask;
  /** The worker's WebAssembly memories, as it last reported them. */
  wasmBytes: number;
  idleTimer?: NodeJS.Timeout;
  /** Task kinds this worker has run: the first of each pays its start-up (a codec compiled, an engine loaded). */
  kindsRun: Set<string>;
}

/**
 * The slot after its worker is replaced (or stopped, when `worker` is absent): a new
 * generation, so pins on the old worker know their state is gone.
 */
export function nextGeneration(previous: WorkerSlot, worker?: Worker): WorkerSlot {
  return { worker, generation: previous.generation + 1, pins: 0, wasmBytes: 0, kindsRun: new Set() };
}

/** A running worker with no task and no pin: it may be stopped or replaced without loss. */
export function isIdle(slot: WorkerSlot): boolean {
  return slot.worker !== undefined && slot.current === undefined && slot.pins === 0;
}
