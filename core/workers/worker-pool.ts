import { availableParallelism } from 'node:os';
import { Worker, type TransferListItem } from 'node:worker_threads';
import { ERROR_CATALOGUE, GatewayError, type ErrorCode } from '../errors';
import type { ResultMessage, TaskMessage } from './worker-protocol';

export interface WorkerPoolOptions {
  /** Absolute path of the compiled worker script (it calls `serveWorkerTasks`). */
  readonly script: string;
  /** Number of threads; defaults to the number of cores. */
  readonly size?: number;
  /** Name used in thread names and errors. */
  readonly name: string;
  /** Passed to every worker as `workerData`. */
  readonly workerData?: unknown;
}

interface PendingTask {
  readonly message: TaskMessage<unknown>;
  readonly transfer: readonly TransferListItem[];
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
  readonly signal?: AbortSignal;
}

interface Slot {
  worker: Worker;
  current?: PendingTask;
}

/**
 * A fixed pool of worker threads for CPU-bound work (synthesis, DSP, encoding), so the event
 * loop keeps serving. Tasks queue in order; a crashed worker is replaced and only its task fails.
 */
export class WorkerPool<Task, Result> {
  private readonly slots: Slot[] = [];
  private readonly queue: PendingTask[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {
    const size = Math.max(1, options.size ?? availableParallelism());
    for (let index = 0; index < size; index += 1) this.slots.push({ worker: this.spawn(index) });
  }

  get size(): number {
    return this.slots.length;
  }

  /** Runs one task on the next free worker. `transfer` moves buffers instead of copying them. */
  run(task: Task, transfer: readonly TransferListItem[] = [], signal?: AbortSignal): Promise<Result> {
    if (this.closed) return Promise.reject(new GatewayError('TTS_ERR_UNAVAILABLE', `${this.options.name} pool is closed`));
    if (signal?.aborted) return Promise.reject(cancelled(this.options.name));
    return new Promise<Result>((resolve, reject) => {
      const pending: PendingTask = {
        message: { id: this.nextId++, task },
        transfer,
        resolve: resolve as (value: unknown) => void,
        reject,
        signal,
      };
      signal?.addEventListener('abort', () => this.dropQueued(pending), { once: true });
      this.queue.push(pending);
      this.dispatch();
    });
  }

  /** Runs one task on every worker (for example a warm-up), in parallel. */
  async broadcast(task: Task): Promise<Result[]> {
    return Promise.all(this.slots.map(() => this.run(task)));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new GatewayError('TTS_ERR_UNAVAILABLE', `${this.options.name} pool closed`));
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }

  private spawn(index: number): Worker {
    const worker = new Worker(this.options.script, {
      name: `${this.options.name}-${index}`,
      workerData: this.options.workerData,
    });
    worker.unref();
    worker.on('message', (message: ResultMessage<Result>) => this.settle(worker, message));
    worker.on('error', (error) => this.replace(worker, error));
    worker.on('exit', (code) => {
      if (!this.closed && code !== 0) this.replace(worker, new Error(`worker exited with code ${code}`));
    });
    return worker;
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.current) continue;
      const next = this.queue.shift();
      if (!next) return;
      slot.current = next;
      slot.worker.ref();
      slot.worker.postMessage(next.message, next.transfer as TransferListItem[]);
    }
  }

  private settle(worker: Worker, message: ResultMessage<Result>): void {
    const slot = this.slots.find((candidate) => candidate.worker === worker);
    const pending = slot?.current;
    if (!slot || !pending || pending.message.id !== message.id) return;
    slot.current = undefined;
    worker.unref();
    if (message.ok) pending.resolve(message.result);
    else pending.reject(workerFailure(this.options.name, message.error));
    this.dispatch();
  }

  private replace(worker: Worker, error: Error): void {
    const index = this.slots.findIndex((candidate) => candidate.worker === worker);
    if (index < 0 || this.closed) return;
    const failed = this.slots[index].current;
    void worker.terminate();
    this.slots[index] = { worker: this.spawn(index) };
    failed?.reject(new GatewayError('TTS_ERR_INTERNAL', `${this.options.name} worker crashed`, { cause: error }));
    this.dispatch();
  }

  private dropQueued(pending: PendingTask): void {
    const position = this.queue.indexOf(pending);
    if (position >= 0) {
      this.queue.splice(position, 1);
      pending.reject(cancelled(this.options.name));
    }
  }
}

/** A worker's coded error keeps its code; anything else is an internal failure. */
function workerFailure(name: string, error: { message: string; code?: string }): GatewayError {
  if (error.code && error.code in ERROR_CATALOGUE) return new GatewayError(error.code as ErrorCode, error.message);
  return new GatewayError('TTS_ERR_INTERNAL', `${name} task failed: ${error.message}`);
}

function cancelled(name: string): GatewayError {
  return new GatewayError('TTS_ERR_CANCELLED', `${name} task was cancelled`);
}
