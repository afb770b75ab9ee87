import type { PoolReservation } from './reservations';
import type { WorkerPin } from './worker-pin';
import type { TaskCost, WorkRates } from './work-rates';

export interface WorkerPoolOptions {
  /** Absolute path of the compiled worker script (it calls `serveWorkerTasks`). */
  readonly script: string;
  /** Number of threads; defaults to the number of cores. */
  readonly size?: number;
  /** Name used in thread names and errors. */
  readonly name: string;
  /** Passed to every worker as `workerData`. */
  readonly workerData?: unknown;
  /** Tasks that may wait at most; more are refused at once (503). Default: 64 per worker. */
  readonly maxQueued?: number;
  /** Milliseconds per unit of work of each task kind until the pool has measured its own. */
  readonly initialMsPerUnit?: Readonly<Record<string, number>>;
  /** Rates shared with other pools of the same work (one-thread pools of a growing set); default: the pool's own. */
  readonly rates?: WorkRates;
  /**
   * A worker whose WebAssembly memories (which never shrink) passed this many bytes is replaced
   * once it is idle and holds no pins. Absent: never.
   */
  readonly recycleAboveBytes?: number;
  /**
   * A worker without a task or pin for this many milliseconds is stopped (its thread, heap and
   * WebAssembly memories go back to the system) and started again for the next task that needs
   * it. Absent: workers run until the pool closes.
   */
  readonly idleMs?: number;
  /**
   * With `idleMs`: a worker left without work while another runs, or after a burst (a worker
   * started while another ran, until none runs), stops after this instead. Absent: `idleMs`.
   */
  readonly surplusIdleMs?: number;
  /** No worker runs until a task needs one (another starts only while every running one is busy). Default: all start with the pool. */
  readonly startOnDemand?: boolean;
  /**
   * Share of the time left before a task's deadline that the task may use here, waiting
   * included (default 1). Less leaves time for the stages after it: a task that would finish
   * later is refused at once.
   */
  readonly admissionShare?: number;
  /**
   * A task cancelled while it runs has this long to stop (its handler polls the cancel flag);
   * then its worker is terminated and replaced, as a crashed one is, since a task stuck in a loop
   * (a codec on hostile input) would otherwise hold the thread for good. Default 5000.
   */
  readonly cancelGraceMs?: number;
}

export interface RunOptions {
  /** Runs the task on the pinned worker instead of the next free one. */
  readonly pin?: WorkerPin;
  /**
   * When the task must be done (Unix milliseconds). Tasks are served earliest deadline first, so
   * work already under way finishes before newer work starts; a task still waiting at its
   * deadline is dropped (504), and one that cannot finish by then is refused at once (503).
   */
  readonly deadline?: number;
  /** The task's work, for the wait estimates: an uncosted task counts as one average task. */
  readonly cost?: TaskCost;
  /** Part of work already admitted (the next piece of an open stream): ordered, never refused for load. */
  readonly admitted?: boolean;
  /** The room this task was promised by `reserve`: given up as the task takes its place in the queue. */
  readonly reservation?: PoolReservation;
}

/** Load-shedding figures of a pool, for tests and operators. */
export interface WorkerPoolStats {
  readonly queued: number;
  /** Workers replaced because their memory passed `recycleAboveBytes`. */
  readonly recycled: number;
  /** Workers stopped after `idleMs` without work. */
  readonly stoppedIdle: number;
  /** Workers terminated because a cancelled task did not stop within `cancelGraceMs`. */
  readonly terminatedStuck: number;
  /** Room promised by `reserve` and not taken up or released yet. */
  readonly reserved: number;
  /** Each slot; `running` is false while its worker is stopped for idleness. */
  readonly workers: readonly { readonly running: boolean; readonly busy: boolean; readonly pins: number; readonly wasmBytes: number }[];
}
