/**
 * eSpeak's worker threads, started on demand and stopped when idle: none until the first task,
 * another only when every running thread is busy (up to `maxWorkers`). A thread without a task
 * is stopped after `surplusIdleMs` while others run, or when a burst (more than one thread at a
 * time) went before; the one thread of light, steady use is kept for `idleMs`, so its requests
 * find an engine ready. Each thread holds its own engine (about 25 MB, and its own 24 MB copy of
 * the voice data), so a quiet gateway holds none, and memory taken by a burst comes back soon after it.
 */
import type { TransferListItem } from 'node:worker_threads';
import { gatewayError, WorkerPool, WorkRates, type RunOptions, type WorkerPoolOptions } from '../../core';

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
  /** Each thread's admission and recycling (its queue bound is per thread); rates are learned across threads. */
  readonly threads?: Omit<WorkerPoolOptions, 'script' | 'size' | 'name' | 'rates' | 'workerData'>;
}

interface Thread<Task, Result> {
  readonly pool: WorkerPool<Task, Result>;
  /** Tasks given to it and not settled yet. */
  running: number;
  /** When it last became idle (Unix milliseconds). */
  idleSince: number;
  idleTimer?: NodeJS.Timeout;
}

export class GrowingWorkerPool<Task, Result> {
  private readonly threads: Thread<Task, Result>[] = [];
  private startedCount = 0;
  /** More than one thread ran since the pool last had none: the last one goes after `surplusIdleMs` too. */
  private afterBurst = false;
  private closed = false;
  /** What the threads have measured, shared, so a thread started later estimates like the others. */
  private readonly rates: WorkRates;

  constructor(private readonly options: GrowingWorkerPoolOptions) {
    this.rates = new WorkRates(options.threads?.initialMsPerUnit);
  }

  get maxWorkers(): number {
    return this.options.maxWorkers;
  }

  /** Threads running now (busy or idle). */
  get running(): number {
    return this.threads.length;
  }

  /** Runs on an idle thread, a new one, or the least busy; `options` as WorkerPool.run (deadline, cost). */
  async run(task: Task, transfer: readonly TransferListItem[] = [], signal?: AbortSignal, options: RunOptions = {}): Promise<Result> {
    if (this.closed) throw gatewayError('TTS_ERR_UNAVAILABLE', { provider: `The ${this.options.name} pool`, reason: 'it is closed' });
    const thread = this.pick();
    clearTimeout(thread.idleTimer);
    thread.running += 1;
    try {
      return await thread.pool.run(task, transfer, signal, options);
    } finally {
      thread.running -= 1;
      if (thread.running === 0 && !this.closed) {
        thread.idleSince = Date.now();
        this.scheduleStop(thread);
      }
    }
  }

  /** Stops every thread without a task now. */
  async stopIdle(): Promise<void> {
    await Promise.all(this.threads.filter((thread) => thread.running === 0).map((thread) => this.stopIfIdle(thread)));
  }

  async close(): Promise<void> {
    this.closed = true;
    const threads = this.threads.splice(0);
    for (const thread of threads) clearTimeout(thread.idleTimer);
    await Promise.all(threads.map((thread) => thread.pool.close()));
  }

  /** An idle thread, else a new one while below the maximum, else the least busy. */
  private pick(): Thread<Task, Result> {
    const idle = this.threads.find((thread) => thread.running === 0);
    if (idle) return idle;
    if (this.threads.length < this.options.maxWorkers) return this.start();
    return this.threads.reduce((least, thread) => (thread.running < least.running ? thread : least));
  }

  private start(): Thread<Task, Result> {
    // A WorkerPool of one thread: it replaces the thread if it crashes and queues its tasks.
    const name = `${this.options.name}-${this.startedCount}`;
    this.startedCount += 1;
    if (this.threads.length > 0) this.afterBurst = true;
    const pool = new WorkerPool<Task, Result>({ ...this.options.threads, script: this.options.script, size: 1, name, rates: this.rates });
    const thread: Thread<Task, Result> = { pool, running: 0, idleSince: Date.now() };
    this.threads.push(thread);
    return thread;
  }

  /** Arms the idle timer: the surplus wait while other threads run, the full one for the last. */
  private scheduleStop(thread: Thread<Task, Result>): void {
    clearTimeout(thread.idleTimer);
    const wait = this.threads.length > 1 || this.afterBurst ? Math.min(this.options.surplusIdleMs ?? this.options.idleMs, this.options.idleMs) : this.options.idleMs;
    thread.idleTimer = setTimeout(() => void this.retireIfIdle(thread), Math.max(0, wait - (Date.now() - thread.idleSince)));
    thread.idleTimer.unref();
  }

  /** Stops an idle thread whose wait is over; the last one of steady use waits out the full `idleMs`. */
  private async retireIfIdle(thread: Thread<Task, Result>): Promise<void> {
    if (thread.running > 0 || !this.threads.includes(thread)) return;
    if (this.threads.length === 1 && !this.afterBurst && Date.now() - thread.idleSince < this.options.idleMs) {
      this.scheduleStop(thread);
      return;
    }
    await this.stopIfIdle(thread);
  }

  private async stopIfIdle(thread: Thread<Task, Result>): Promise<void> {
    const index = this.threads.indexOf(thread);
    if (index < 0 || thread.running > 0) return;
    clearTimeout(thread.idleTimer);
    // Out of the list first, so that no new task picks it while it stops.
    this.threads.splice(index, 1);
    if (this.threads.length === 0) this.afterBurst = false;
    await thread.pool.close();
  }
}
