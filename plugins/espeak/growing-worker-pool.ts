/**
 * eSpeak's worker threads, started on demand and stopped when idle: none until the first task,
 * another only when every running thread is busy (up to `maxWorkers`). A thread without a task
 * is stopped after `surplusIdleMs` while others run, or when a burst (more than one thread at a
 * time) went before; the one thread of light, steady use is kept for `idleMs`, so its requests
 * find an engine ready. Each thread holds its own engine (about 25 MB, and its own 24 MB copy of
 * the voice data), so a quiet gateway holds none, and memory taken by a burst comes back soon after it.
 * Tasks that find every thread busy wait in one queue, for whichever thread comes free first: a
 * task handed to one thread ahead of time could wait behind a long (or stuck) synthesis while
 * another thread sat idle.
 */
import type { TransferListItem } from 'node:worker_threads';
import { WorkerPool, type RunOptions, type WorkerPoolOptions } from '../../core';

export interface GrowingWorkerPoolOptions {
  /** Absolute path of the compiled worker script. */
  readonly script: string;
  readonly maxWorkers: number;
  /** How long the last running thread may sit without a task before it is stopped. */
  readonly idleMs: number;
  /** How long a thread beside others, or left after a burst, may sit without a task; default `idleMs`. */
  readonly surplusIdleMs?: number;
  /** Used in thread names and errors. */
  readonly name: string;
  /** The threads' admission and recycling (`maxQueued` counts per thread). */
  readonly threads?: Omit<WorkerPoolOptions, 'script' | 'size' | 'name' | 'workerData' | 'idleMs' | 'surplusIdleMs' | 'startOnDemand'>;
}

export class GrowingWorkerPool<Task, Result> {
  private readonly pool: WorkerPool<Task, Result>;

  constructor(private readonly options: GrowingWorkerPoolOptions) {
    const queuedPerThread = options.threads?.maxQueued;
    this.pool = new WorkerPool<Task, Result>({
      ...options.threads,
      script: options.script,
      size: options.maxWorkers,
      name: options.name,
      startOnDemand: true,
      idleMs: options.idleMs,
      surplusIdleMs: options.surplusIdleMs ?? options.idleMs,
      ...(queuedPerThread !== undefined && { maxQueued: queuedPerThread * options.maxWorkers }),
    });
  }

  get maxWorkers(): number {
    return this.options.maxWorkers;
  }

  /** Threads running now (busy or idle). */
  get running(): number {
    return this.pool.runningWorkers;
  }

  /** Runs on an idle thread, a new one, or the first to come free; `options` as WorkerPool.run (deadline, cost). */
  run(task: Task, transfer: readonly TransferListItem[] = [], signal?: AbortSignal, options: RunOptions = {}): Promise<Result> {
    return this.pool.run(task, transfer, signal, options);
  }

  /** Stops every thread without a task now. */
  stopIdle(): Promise<void> {
    return this.pool.stopIdle();
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
