import { availableParallelism } from 'node:os';
import { Worker, type TransferListItem } from 'node:worker_threads';
import { ERROR_CATALOGUE, GatewayError, gatewayError, type ErrorCode } from '../errors';
import { WorkerPin, type PinnedSlot } from './worker-pin';
import { WorkRates, type TaskCost } from './work-rates';
import type { ResultMessage, TaskMessage } from './worker-protocol';

export type { WorkerPin } from './worker-pin';
export type { TaskCost } from './work-rates';

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
   * Share of the time left before a task's deadline that the task may use here, waiting
   * included (default 1). Less leaves time for the stages after it: a task that would finish
   * later is refused at once.
   */
  readonly admissionShare?: number;
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

/**
 * Room promised to work that will come later (the processing of a whole file, once its text is
 * synthesized): counted as work ahead of newer tasks until the work is run or the promise dropped.
 */
export interface PoolReservation {
  /** Gives the room back (the work came, or never will). Idempotent. */
  release(): void;
}

interface Reserved {
  readonly orderKey: number;
  readonly expectedMs: number;
}

/** Load-shedding figures of a pool, for tests and operators. */
export interface WorkerPoolStats {
  readonly queued: number;
  /** Workers replaced because their memory passed `recycleAboveBytes`. */
  readonly recycled: number;
  /** Workers stopped after `idleMs` without work. */
  readonly stoppedIdle: number;
  /** Room promised by `reserve` and not taken up or released yet. */
  readonly reserved: number;
  /** Each slot; `running` is false while its worker is stopped for idleness. */
  readonly workers: readonly { readonly running: boolean; readonly busy: boolean; readonly pins: number; readonly wasmBytes: number }[];
}

interface PendingTask {
  readonly id: number;
  /** The task until it is posted; cleared then so the caller's payload is not kept alive here. */
  payload?: { readonly message: TaskMessage<unknown>; readonly transfer: readonly TransferListItem[] };
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
  /** Removes the abort listener: a long-lived signal must not keep a settled task alive. */
  readonly detach: () => void;
  readonly pin?: WorkerPin;
  /** Queue order: the deadline, or for tasks without one, when they would be late by default. */
  readonly orderKey: number;
  readonly deadline?: number;
  readonly cost?: TaskCost;
  readonly expectedMs: number;
  readonly cancelFlag: SharedArrayBuffer;
  startedAt?: number;
}

interface Slot extends PinnedSlot {
  /** Absent while stopped for idleness (`idleMs`): started again by the next task for it. */
  worker?: Worker;
  current?: PendingTask;
  wasmBytes: number;
  idleTimer?: NodeJS.Timeout;
  /** Task kinds this worker has run: the first of each pays its start-up (a codec compiled, an engine loaded). */
  kindsRun?: Set<string>;
}

/** Tasks without a deadline are ordered as if they had this long. */
const DEFAULT_HORIZON_MS = 60_000;
const DEFAULT_MAX_QUEUED_PER_WORKER = 64;

/**
 * A fixed pool of worker threads for CPU-bound work (synthesis, DSP, encoding), so the event
 * loop keeps serving. Admission is bounded: the queue holds `maxQueued` tasks at most, tasks are
 * served earliest deadline first, and a task that cannot finish by its deadline (by the pool's
 * measured rates) is refused at once with 503 and Retry-After instead of burning CPU and timing
 * out. A crashed worker is replaced and only its tasks fail; a worker grown past
 * `recycleAboveBytes` is replaced when idle, and with `idleMs` a worker without work stops until
 * work comes, so memory taken in a burst goes back to the system after it.
 */
export class WorkerPool<Task, Result> {
  private readonly slots: Slot[] = [];
  /** Waiting tasks, sorted by `orderKey` then arrival. */
  private readonly queue: PendingTask[] = [];
  private readonly rates: WorkRates;
  private readonly maxQueued: number;
  private nextId = 1;
  private closed = false;
  private recycled = 0;
  private stoppedIdle = 0;
  private readonly reserved = new Set<Reserved>();

  constructor(private readonly options: WorkerPoolOptions) {
    const size = Math.max(1, options.size ?? availableParallelism());
    for (let index = 0; index < size; index += 1) this.slots.push({ worker: this.spawn(index), generation: 0, pins: 0, wasmBytes: 0 });
    this.rates = options.rates ?? new WorkRates(options.initialMsPerUnit);
    this.maxQueued = options.maxQueued ?? size * DEFAULT_MAX_QUEUED_PER_WORKER;
    // Workers that get no task at all stop too.
    this.slots.forEach((_slot, index) => this.afterWork(index));
  }

  /** Tasks waiting for a worker (the audio queue depth of the metrics). */
  get queued(): number {
    return this.queue.length;
  }

  get size(): number {
    return this.slots.length;
  }

  stats(): WorkerPoolStats {
    return {
      queued: this.queue.length,
      recycled: this.recycled,
      stoppedIdle: this.stoppedIdle,
      reserved: this.reserved.size,
      workers: this.slots.map((slot) => ({ running: slot.worker !== undefined, busy: slot.current !== undefined, pins: slot.pins, wasmBytes: slot.wasmBytes })),
    };
  }

  /** Claims the worker with the fewest pins, for a series of tasks that share state in it. */
  pin(): WorkerPin {
    let chosen = 0;
    this.slots.forEach((slot, index) => {
      const current = this.slots[chosen];
      // Fewest pins; on a tie, a running worker rather than one that would have to start.
      if (slot.pins < current.pins || (slot.pins === current.pins && slot.worker && !current.worker)) chosen = index;
    });
    clearTimeout(this.slots[chosen].idleTimer);
    this.slots[chosen].pins += 1;
    return new WorkerPin(this.slots, chosen, this.slots[chosen].generation, () => this.afterWork(chosen));
  }

  /**
   * Runs one task on the next free worker, or on the pinned one. `transfer` moves buffers
   * instead of copying them. An abort drops the task while it waits and raises the task's
   * cancel flag while it runs (a handler that polls it stops early).
   */
  run(task: Task, transfer: readonly TransferListItem[] = [], signal?: AbortSignal, options: RunOptions = {}): Promise<Result> {
    // The promised room becomes this task's place in the queue (or is given up if it is refused).
    options.reservation?.release();
    if (this.closed) return Promise.reject(gatewayError('TTS_ERR_UNAVAILABLE', { provider: `The ${this.options.name} pool`, reason: 'it is closed' }));
    if (signal?.aborted) return Promise.reject(cancelled(this.options.name));
    const pin = options.pin;
    if (pin && !(pin instanceof WorkerPin && pin.belongsTo(this.slots))) return Promise.reject(new TypeError('the pin belongs to another pool'));
    if (pin?.crashed) return Promise.reject(lostState(this.options.name));
    if (pin?.isReleased) return Promise.reject(gatewayError('TTS_ERR_INTERNAL', { problem: `${this.options.name} task ran on a released pin` }));
    const now = Date.now();
    const orderKey = options.deadline ?? now + DEFAULT_HORIZON_MS;
    const expectedMs = this.rates.expectedMs(options.cost);
    if (!options.admitted) {
      const refusal = this.admission(now, orderKey, expectedMs, options);
      if (refusal) return Promise.reject(refusal);
    }
    return new Promise<Result>((resolve, reject) => {
      const id = this.nextId++;
      const cancelFlag = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
      const onAbort = (): void => {
        if (pending.startedAt === undefined) this.dropQueued(pending);
        else Atomics.store(new Int32Array(cancelFlag), 0, 1);
      };
      const pending: PendingTask = {
        id,
        payload: { message: { id, task, cancelFlag }, transfer },
        resolve: resolve as (value: unknown) => void,
        reject,
        detach: () => signal?.removeEventListener('abort', onAbort),
        pin,
        orderKey,
        deadline: options.deadline,
        cost: options.cost,
        expectedMs,
        cancelFlag,
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.enqueue(pending);
      this.dispatch();
    });
  }

  /**
   * Promises room for a task that will be run later by `deadline`: refused at once (503 with
   * Retry-After) when it could not finish in time behind the work queued, running and promised.
   */
  reserve(options: { readonly deadline: number; readonly cost: TaskCost }): PoolReservation {
    if (this.closed) throw gatewayError('TTS_ERR_UNAVAILABLE', { provider: `The ${this.options.name} pool`, reason: 'it is closed' });
    const now = Date.now();
    const expectedMs = this.rates.expectedMs(options.cost);
    const refusal = this.admission(now, options.deadline, expectedMs, { deadline: options.deadline });
    if (refusal) throw refusal;
    const entry: Reserved = { orderKey: options.deadline, expectedMs };
    this.reserved.add(entry);
    return { release: () => void this.reserved.delete(entry) };
  }

  /** Runs one task on every worker (for example a warm-up), in parallel. */
  async broadcast(task: Task): Promise<Result[]> {
    return Promise.all(this.slots.map(() => this.run(task, [], undefined, { admitted: true })));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) this.fail(pending, gatewayError('TTS_ERR_UNAVAILABLE', { provider: `The ${this.options.name} pool`, reason: 'it closed' }));
    for (const slot of this.slots) clearTimeout(slot.idleTimer);
    await Promise.all(this.slots.map((slot) => slot.worker?.terminate()));
  }

  /** Refuses work that cannot be done in time, or that the queue has no room for (load shedding). */
  private admission(now: number, orderKey: number, expectedMs: number, options: RunOptions): GatewayError | undefined {
    const waitMs = this.estimatedWaitMs(orderKey, options.pin);
    if (this.queue.length >= this.maxQueued) return this.overloaded(`its queue is full (${this.maxQueued} tasks)`, waitMs);
    const share = this.options.admissionShare ?? 1;
    if (options.deadline !== undefined && waitMs + expectedMs > (options.deadline - now) * share) {
      return this.overloaded(`it cannot finish this work in time (about ${Math.ceil(waitMs / 1000)} s of work is ahead of it)`, waitMs);
    }
    return undefined;
  }

  /**
   * How long a task with this order key would wait: the work queued ahead of it and the rest of
   * the running tasks, shared by the workers (only its own worker's for a pinned task).
   */
  private estimatedWaitMs(orderKey: number, pin: WorkerPin | undefined): number {
    const now = Date.now();
    const relevant = (worker: number): boolean => pin === undefined || pin.worker === worker;
    let work = 0;
    this.slots.forEach((slot, index) => {
      const running = slot.current;
      if (running?.startedAt !== undefined && relevant(index)) work += Math.max(0, running.expectedMs - (now - running.startedAt));
    });
    for (const pending of this.queue) {
      if (pending.orderKey > orderKey) break;
      if (pending.pin === undefined || relevant(pending.pin.worker)) work += pending.expectedMs;
    }
    // Promised work is unpinned and will be served by its deadline like the queued work.
    for (const promised of this.reserved) if (promised.orderKey <= orderKey && pin === undefined) work += promised.expectedMs;
    return pin === undefined ? work / this.slots.length : work;
  }

  private overloaded(reason: string, waitMs: number): GatewayError {
    const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
    return gatewayError('TTS_ERR_UNAVAILABLE', { provider: `The ${this.options.name} pool`, reason: `${reason}; retry in ${retryAfterSeconds} s` }, {
      retryAfterSeconds,
      details: [{ reason: 'overloaded', pool: this.options.name }],
    });
  }

  private enqueue(pending: PendingTask): void {
    // Binary search for the first task ordered after this one (equal keys keep arrival order).
    let low = 0;
    let high = this.queue.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.queue[middle].orderKey <= pending.orderKey) low = middle + 1;
      else high = middle;
    }
    this.queue.splice(low, 0, pending);
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
    // Running workers first: a stopped one starts only for work the running ones cannot take.
    const order = this.slots.map((_slot, index) => index).sort((left, right) => Number(!this.slots[left].worker) - Number(!this.slots[right].worker));
    for (const index of order) {
      const slot = this.slots[index];
      while (!slot.current) {
        const position = this.queue.findIndex((pending) => pending.pin === undefined || pending.pin.worker === index);
        if (position < 0) break;
        const [next] = this.queue.splice(position, 1);
        // Waited past its deadline: its caller has given up, the work would be wasted.
        if (next.deadline !== undefined && Date.now() > next.deadline) {
          this.fail(next, gatewayError('TTS_ERR_TIMEOUT', { subject: `The ${this.options.name} task`, limit: 'its deadline (it waited too long to start)' }));
          continue;
        }
        const payload = next.payload;
        next.payload = undefined;
        if (!payload) {
          next.detach();
          next.reject(gatewayError('TTS_ERR_INTERNAL', { problem: `${this.options.name} task was posted twice` }));
          continue;
        }
        next.startedAt = Date.now();
        slot.current = next;
        clearTimeout(slot.idleTimer);
        slot.worker ??= this.spawn(index);
        slot.worker.ref();
        slot.worker.postMessage(payload.message, payload.transfer as TransferListItem[]);
      }
    }
  }

  private settle(worker: Worker, message: ResultMessage<Result>): void {
    const index = this.slots.findIndex((candidate) => candidate.worker === worker);
    const slot = this.slots[index];
    const pending = slot?.current;
    if (!slot || !pending || pending.id !== message.id) return;
    slot.current = undefined;
    if (message.wasmBytes !== undefined) slot.wasmBytes = message.wasmBytes;
    worker.unref();
    pending.detach();
    // The first task of a kind on a worker is not measured: it also paid the worker's start-up
    // (a codec compiled, an engine loaded), which would make every later estimate too long.
    const kind = pending.cost?.kind ?? '';
    const kindsRun = (slot.kindsRun ??= new Set());
    const firstOfKind = !kindsRun.has(kind);
    kindsRun.add(kind);
    if (!firstOfKind && pending.startedAt !== undefined && Atomics.load(new Int32Array(pending.cancelFlag), 0) === 0) this.rates.record(pending.cost, Date.now() - pending.startedAt);
    if (message.ok) pending.resolve(message.result);
    else pending.reject(workerFailure(this.options.name, message.error));
    this.afterWork(index);
    this.dispatch();
  }

  /** A worker finished a task or lost a pin: replace it if it grew, and arm its idle stop. */
  private afterWork(index: number): void {
    this.recycleIfIdle(index);
    const slot = this.slots[index];
    const idleMs = this.options.idleMs;
    if (this.closed || idleMs === undefined || !slot.worker || slot.current || slot.pins > 0) return;
    clearTimeout(slot.idleTimer);
    slot.idleTimer = setTimeout(() => this.stopIfIdle(index), idleMs);
    slot.idleTimer.unref();
  }

  /** Stops a worker still without a task or pin; the next task for its slot starts a new one. */
  private stopIfIdle(index: number): void {
    const slot = this.slots[index];
    if (this.closed || !slot.worker || slot.current || slot.pins > 0) return;
    const old = slot.worker;
    // Emptied first, so its exit is not taken for a crash.
    this.slots[index] = { generation: slot.generation + 1, pins: 0, wasmBytes: 0 };
    this.stoppedIdle += 1;
    void old.terminate();
  }

  /** Replaces an idle worker without pins whose memory grew past the threshold. */
  private recycleIfIdle(index: number): void {
    const slot = this.slots[index];
    const threshold = this.options.recycleAboveBytes;
    if (this.closed || threshold === undefined || !slot.worker || slot.current || slot.pins > 0 || slot.wasmBytes <= threshold) return;
    const old = slot.worker;
    clearTimeout(slot.idleTimer);
    // With idle stops, the replacement starts when work comes; without, at once (ready for it).
    this.slots[index] = { worker: this.options.idleMs === undefined ? this.spawn(index) : undefined, generation: slot.generation + 1, pins: 0, wasmBytes: 0 };
    this.recycled += 1;
    // Its replacement is in the slot already, so this exit is not taken for a crash.
    void old.terminate();
    this.dispatch();
  }

  private replace(worker: Worker, error: Error): void {
    const index = this.slots.findIndex((candidate) => candidate.worker === worker);
    if (index < 0 || this.closed) return;
    const old = this.slots[index];
    clearTimeout(old.idleTimer);
    void worker.terminate();
    this.slots[index] = { worker: this.spawn(index), generation: old.generation + 1, pins: 0, wasmBytes: 0 };
    if (old.current) {
      old.current.detach();
      old.current.reject(gatewayError('TTS_ERR_INTERNAL', { problem: `${this.options.name} worker crashed` }, { cause: error }));
    }
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
