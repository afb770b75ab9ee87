import { availableParallelism } from 'node:os';
import { Worker, type TransferListItem } from 'node:worker_threads';
import { ERROR_CATALOGUE, GatewayError, gatewayError, type ErrorCode } from '../errors';
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

/**
 * A claim on one worker of a pool, for work whose state lives in that worker (a stream):
 * tasks run with it go to that worker only, waiting while it is busy.
 */
export interface WorkerPin {
  /** Index of the worker in its pool. */
  readonly worker: number;
  /** False once that worker crashed (its state is gone) or the pin was released. */
  readonly alive: boolean;
  /** Gives the claim back, so new pins spread to less loaded workers. Idempotent. */
  release(): void;
}

export interface RunOptions {
  /** Runs the task on the pinned worker instead of the next free one. */
  readonly pin?: WorkerPin;
}

interface PendingTask {
  readonly id: number;
  /** The task until it is posted; cleared then so the caller's payload is not kept alive here. */
  payload?: { readonly message: TaskMessage<unknown>; readonly transfer: readonly TransferListItem[] };
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
  /** Removes the abort listener: a long-lived signal must not keep a settled task alive. */
  readonly detach: () => void;
  readonly pin?: Pin;
}

interface Slot {
  worker: Worker;
  current?: PendingTask;
  /** Bumped when the worker is replaced: pins of an older generation lost their state. */
  generation: number;
  pins: number;
}

class Pin implements WorkerPin {
  private released = false;

  constructor(
    private readonly slots: readonly Slot[],
    readonly worker: number,
    readonly generation: number,
  ) {}

  get alive(): boolean {
    return !this.released && !this.crashed;
  }

  get crashed(): boolean {
    return this.slots[this.worker].generation !== this.generation;
  }

  get isReleased(): boolean {
    return this.released;
  }

  belongsTo(slots: readonly Slot[]): boolean {
    return slots === this.slots;
  }

  release(): void {
    if (!this.alive) return;
    this.released = true;
    this.slots[this.worker].pins -= 1;
  }
}

/**
 * A fixed pool of worker threads for CPU-bound work (synthesis, DSP, encoding), so the event
 * loop keeps serving. Tasks queue in order; a crashed worker is replaced and only its tasks fail.
 */
export class WorkerPool<Task, Result> {
  private readonly slots: Slot[] = [];
  private readonly queue: PendingTask[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {
    const size = Math.max(1, options.size ?? availableParallelism());
    for (let index = 0; index < size; index += 1) this.slots.push({ worker: this.spawn(index), generation: 0, pins: 0 });
  }

  /** Tasks waiting for a worker (the audio queue depth of the metrics). */
  get queued(): number {
    return this.queue.length;
  }

  get size(): number {
    return this.slots.length;
  }

  /** Claims the worker with the fewest pins, for a series of tasks that share state in it. */
  pin(): WorkerPin {
    let chosen = 0;
    this.slots.forEach((slot, index) => {
      if (slot.pins < this.slots[chosen].pins) chosen = index;
    });
    this.slots[chosen].pins += 1;
    return new Pin(this.slots, chosen, this.slots[chosen].generation);
  }

  /**
   * Runs one task on the next free worker, or on the pinned one. `transfer` moves buffers
   * instead of copying them. An abort drops the task while it waits; a started task runs on.
   */
  run(task: Task, transfer: readonly TransferListItem[] = [], signal?: AbortSignal, options: RunOptions = {}): Promise<Result> {
    if (this.closed) return Promise.reject(gatewayError('TTS_ERR_UNAVAILABLE', { provider: `The ${this.options.name} pool`, reason: 'it is closed' }));
    if (signal?.aborted) return Promise.reject(cancelled(this.options.name));
    const pin = options.pin;
    if (pin && !(pin instanceof Pin && pin.belongsTo(this.slots))) return Promise.reject(new TypeError('the pin belongs to another pool'));
    if (pin?.crashed) return Promise.reject(lostState(this.options.name));
    if (pin?.isReleased) return Promise.reject(gatewayError('TTS_ERR_INTERNAL', { problem: `${this.options.name} task ran on a released pin` }));
    return new Promise<Result>((resolve, reject) => {
      const onAbort = (): void => this.dropQueued(pending);
      const id = this.nextId++;
      const pending: PendingTask = {
        id,
        payload: { message: { id, task }, transfer },
        resolve: resolve as (value: unknown) => void,
        reject,
        detach: () => signal?.removeEventListener('abort', onAbort),
        pin,
      };
      signal?.addEventListener('abort', onAbort, { once: true });
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
    for (const pending of this.queue.splice(0)) this.fail(pending, gatewayError('TTS_ERR_UNAVAILABLE', { provider: `The ${this.options.name} pool`, reason: 'it closed' }));
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
    // Any exit outside close() loses the worker, even a clean one: its tasks would wait forever.
    worker.on('exit', (code) => this.replace(worker, new Error(`worker exited with code ${code}`)));
    return worker;
  }

  private dispatch(): void {
    this.slots.forEach((slot, index) => {
      if (slot.current) return;
      const position = this.queue.findIndex((pending) => pending.pin === undefined || pending.pin.worker === index);
      if (position < 0) return;
      const [next] = this.queue.splice(position, 1);
      next.detach();
      const payload = next.payload;
      next.payload = undefined;
      if (!payload) return next.reject(gatewayError('TTS_ERR_INTERNAL', { problem: `${this.options.name} task was posted twice` }));
      slot.current = next;
      slot.worker.ref();
      slot.worker.postMessage(payload.message, payload.transfer as TransferListItem[]);
    });
  }

  private settle(worker: Worker, message: ResultMessage<Result>): void {
    const slot = this.slots.find((candidate) => candidate.worker === worker);
    const pending = slot?.current;
    if (!slot || !pending || pending.id !== message.id) return;
    slot.current = undefined;
    worker.unref();
    if (message.ok) pending.resolve(message.result);
    else pending.reject(workerFailure(this.options.name, message.error));
    this.dispatch();
  }

  private replace(worker: Worker, error: Error): void {
    const index = this.slots.findIndex((candidate) => candidate.worker === worker);
    if (index < 0 || this.closed) return;
    const old = this.slots[index];
    void worker.terminate();
    this.slots[index] = { worker: this.spawn(index), generation: old.generation + 1, pins: 0 };
    old.current?.reject(gatewayError('TTS_ERR_INTERNAL', { problem: `${this.options.name} worker crashed` }, { cause: error }));
    // Tasks pinned to the lost worker need state the new one does not have.
    for (const pending of this.queue.filter((candidate) => candidate.pin?.worker === index)) {
      this.queue.splice(this.queue.indexOf(pending), 1);
      this.fail(pending, lostState(this.options.name));
    }
    this.dispatch();
  }

  private dropQueued(pending: PendingTask): void {
    const position = this.queue.indexOf(pending);
    if (position < 0) return;
    this.queue.splice(position, 1);
    this.fail(pending, cancelled(this.options.name));
  }

  /** Rejects a task that never ran, letting go of its payload and listener. */
  private fail(pending: PendingTask, error: Error): void {
    pending.detach();
    pending.payload = undefined;
    pending.reject(error);
  }
}

/** A worker's coded error keeps its code; anything else is an internal failure. */
function workerFailure(name: string, error: { message: string; code?: string }): GatewayError {
  if (error.code && error.code in ERROR_CATALOGUE) return new GatewayError(error.code as ErrorCode, error.message);
  return gatewayError('TTS_ERR_INTERNAL', { problem: `${name} task failed: ${error.message}` });
}

function cancelled(name: string): GatewayError {
  return gatewayError('TTS_ERR_CANCELLED', { subject: `The ${name} task` });
}

function lostState(name: string): GatewayError {
  return gatewayError('TTS_ERR_INTERNAL', { problem: `${name} worker crashed: the state this task needs is lost` });
}
