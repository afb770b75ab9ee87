import { availableParallelism } from 'node:os';
import { Worker, type TransferListItem } from 'node:worker_threads';
import { gatewayError } from '../errors';
import { Admission } from './admission';
import { failUnstarted, isCancelled, raiseCancelFlag, type PendingTask } from './pending-task';
import { cancelledTaskError, closedPoolError, lostStateError, workerFailure } from './pool-errors';
import { Reservations, type PoolReservation } from './reservations';
import { TaskQueue } from './task-queue';
import type { RunOptions, WorkerPoolOptions, WorkerPoolStats } from './worker-pool-options';
import { WorkerPin } from './worker-pin';
import { WorkerRetirement } from './worker-retirement';
import { nextGeneration, type WorkerSlot } from './worker-slot';
import { learnFromRun, WorkRates, type TaskCost } from './work-rates';
import type { ResultMessage } from './worker-protocol';

export type { WorkerPin } from './worker-pin';
export type { TaskCost } from './work-rates';
export type { PoolReservation } from './reservations';
export type { RunOptions, WorkerPoolOptions, WorkerPoolStats } from './worker-pool-options';

/** Tasks without a deadline are ordered as if they had this long. */
const DEFAULT_HORIZON_MS = 60_000;
const DEFAULT_MAX_QUEUED_PER_WORKER = 64;
const DEFAULT_CANCEL_GRACE_MS = 5000;

/**
 * A fixed pool of worker threads for CPU-bound work (synthesis, DSP, encoding), so the event
 * loop keeps serving. Admission is bounded (see Admission): tasks are served earliest deadline
 * first, and work that cannot be done in time is refused at once with 503 and Retry-After. A
 * crashed worker is replaced and only its tasks fail, as is one whose cancelled task does not stop
 * in time; idle workers give their memory back (see WorkerRetirement).
 */
export class WorkerPool<Task, Result> {
  private readonly slots: WorkerSlot[] = [];
  private readonly queue = new TaskQueue();
  private readonly reservations = new Reservations();
  private readonly rates: WorkRates;
  private readonly admission: Admission;
  private readonly retirement: WorkerRetirement;
  private nextId = 1;
  private closed = false;
  private terminatedStuck = 0;

  constructor(private readonly options: WorkerPoolOptions) {
    const size = Math.max(1, options.size ?? availableParallelism());
    for (let index = 0; index < size; index += 1) this.slots.push({ worker: options.startOnDemand ? undefined : this.spawn(index), generation: 0, pins: 0, wasmBytes: 0, kindsRun: new Set() });
    this.rates = options.rates ?? new WorkRates(options.initialMsPerUnit);
    const admissionSettings = { name: options.name, maxQueued: options.maxQueued ?? size * DEFAULT_MAX_QUEUED_PER_WORKER, admissionShare: options.admissionShare ?? 1 };
    this.admission = new Admission(admissionSettings, this.slots, this.queue, this.reservations);
    this.retirement = new WorkerRetirement(this.slots, options, {
      isClosed: () => this.closed,
      spawn: (index) => this.spawn(index),
      dispatch: () => this.dispatch(),
    });
    // Workers that get no task at all stop too.
    this.slots.forEach((_slot, index) => this.retirement.afterWork(index));
  }

  /** Tasks waiting for a worker (the audio queue depth of the metrics). */
  get queued(): number {
    return this.queue.length;
  }

  get size(): number {
    return this.slots.length;
  }

  /** Workers running now, busy or idle (the others are stopped until work needs them). */
  get runningWorkers(): number {
    return this.slots.filter((slot) => slot.worker !== undefined).length;
  }

  /** Stops every worker without a task or pin now; the next task starts one again. */
  async stopIdle(): Promise<void> {
    await Promise.all(this.slots.map((_slot, index) => this.retirement.stopIfIdle(index)));
  }

  stats(): WorkerPoolStats {
    return {
      queued: this.queue.length,
      recycled: this.retirement.recycled,
      stoppedIdle: this.retirement.stoppedIdle,
      terminatedStuck: this.terminatedStuck,
      reserved: this.reservations.size,
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
    return new WorkerPin(this.slots, chosen, this.slots[chosen].generation, () => this.retirement.afterWork(chosen));
  }

  /**
   * Runs one task on the next free worker, or on the pinned one. `transfer` moves buffers
   * instead of copying them. An abort drops the task while it waits and raises the task's
   * cancel flag while it runs (a handler that polls it stops early); a running task that has not
   * stopped `cancelGraceMs` later loses its worker.
   */
  run(task: Task, transfer: readonly TransferListItem[] = [], signal?: AbortSignal, options: RunOptions = {}): Promise<Result> {
    // The promised room becomes this task's place in the queue (or is given up if it is refused).
    options.reservation?.release();
    if (this.closed) return Promise.reject(closedPoolError(this.options.name, 'it is closed'));
    if (signal?.aborted) return Promise.reject(cancelledTaskError(this.options.name));
    const pin = options.pin;
    if (pin && !(pin instanceof WorkerPin && pin.belongsTo(this.slots))) return Promise.reject(new TypeError('the pin belongs to another pool'));
    if (pin?.crashed) return Promise.reject(lostStateError(this.options.name));
    if (pin?.isReleased) return Promise.reject(gatewayError('TTS_ERR_INTERNAL', { problem: `${this.options.name} task ran on a released pin` }));
    const now = Date.now();
    const orderKey = options.deadline ?? now + DEFAULT_HORIZON_MS;
    const expectedMs = this.rates.expectedMs(options.cost);
    if (!options.admitted) {
      const refusal = this.admission.refusal(now, orderKey, expectedMs, options);
      if (refusal) return Promise.reject(refusal);
    }
    return new Promise<Result>((resolve, reject) => {
      const id = this.nextId++;
      const cancelFlag = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
      let stopDeadline: NodeJS.Timeout | undefined;
      const onAbort = (): void => {
        if (pending.startedAt === undefined) {
          this.dropQueued(pending);
          return;
        }
        raiseCancelFlag(cancelFlag);
        stopDeadline = setTimeout(() => this.terminateStuck(pending), this.options.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS).unref();
      };
      const pending: PendingTask = {
        id,
        payload: { message: { id, task, cancelFlag }, transfer },
        resolve: resolve as (value: unknown) => void,
        reject,
        detach: () => {
          signal?.removeEventListener('abort', onAbort);
          clearTimeout(stopDeadline);
        },
        pin,
        orderKey,
        deadline: options.deadline,
        cost: options.cost,
        expectedMs,
        cancelFlag,
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.add(pending);
      this.dispatch();
    });
  }

  /**
   * Promises room for a task that will be run later by `deadline`: refused at once (503 with
   * Retry-After) when it could not finish in time behind the work queued, running and promised.
   */
  reserve(options: { readonly deadline: number; readonly cost: TaskCost }): PoolReservation {
    if (this.closed) throw closedPoolError(this.options.name, 'it is closed');
    const expectedMs = this.rates.expectedMs(options.cost);
    const refusal = this.admission.refusal(Date.now(), options.deadline, expectedMs, { deadline: options.deadline });
    if (refusal) throw refusal;
    return this.reservations.add(options.deadline, expectedMs);
  }

  /** Runs one task on every worker (for example a warm-up), in parallel. */
  async broadcast(task: Task): Promise<Result[]> {
    return Promise.all(this.slots.map(() => this.run(task, [], undefined, { admitted: true })));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.takeAll()) failUnstarted(pending, closedPoolError(this.options.name, 'it closed'));
    for (const slot of this.slots) {
      clearTimeout(slot.idleTimer);
      // Its worker is terminated below and its exit ignored: the running task would never be answered.
      const running = slot.current;
      slot.current = undefined;
      running?.detach();
      running?.reject(closedPoolError(this.options.name, 'it closed'));
    }
    await Promise.all(this.slots.map((slot) => slot.worker?.terminate()));
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
        const next = this.queue.takeNextFor(index);
        if (!next) break;
        // Waited past its deadline: its caller has given up, the work would be wasted.
        if (next.deadline !== undefined && Date.now() > next.deadline) {
          failUnstarted(next, gatewayError('TTS_ERR_TIMEOUT', { subject: `The ${this.options.name} task`, limit: 'its deadline (it waited too long to start)' }));
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
        if (!slot.worker) {
          slot.worker = this.spawn(index);
          this.retirement.started(index);
        }
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
    const elapsedMs = pending.startedAt !== undefined && !isCancelled(pending) ? Date.now() - pending.startedAt : undefined;
    learnFromRun(this.rates, slot.kindsRun, pending.cost, elapsedMs);
    if (message.ok) pending.resolve(message.result);
    else pending.reject(workerFailure(this.options.name, message.error));
    this.retirement.afterWork(index);
    this.dispatch();
  }

  /**
   * A worker crashed, exited or was cut off: a new one takes its slot, and only the tasks that
   * needed the old one fail (the running one with `runningTaskError`, by default as crashed).
   */
  private replace(worker: Worker, error: Error, runningTaskError?: Error): void {
    const index = this.slots.findIndex((candidate) => candidate.worker === worker);
    if (index < 0 || this.closed) return;
    const old = this.slots[index];
    clearTimeout(old.idleTimer);
    void worker.terminate();
    // A worker lost before it ran anything failed to start (no file descriptor left, a broken
    // build): its replacement waits for work, which starts it, instead of failing in a loop.
    const ranWork = old.current !== undefined || old.kindsRun.size > 0;
    this.slots[index] = nextGeneration(old, ranWork ? this.spawn(index) : undefined);
    if (old.current) {
      old.current.detach();
      old.current.reject(runningTaskError ?? gatewayError('TTS_ERR_INTERNAL', { problem: `${this.options.name} worker crashed` }, { cause: error }));
    }
    // Tasks pinned to the lost worker need state the new one does not have.
    for (const pending of this.queue.takePinnedTo(index)) failUnstarted(pending, lostStateError(this.options.name));
    // The replacement stops when idle like any worker (otherwise it would hold its memory until the pool closes).
    this.retirement.afterWork(index);
    this.dispatch();
  }

  /** A cancelled task still running after its grace (a loop that never polls the flag): its worker goes, as a crashed one would. */
  private terminateStuck(pending: PendingTask): void {
    const slot = this.slots.find((candidate) => candidate.current === pending);
    if (!slot?.worker || this.closed) return;
    this.terminatedStuck += 1;
    this.replace(slot.worker, new Error(`a cancelled ${this.options.name} task did not stop in time`), cancelledTaskError(this.options.name));
  }

  private dropQueued(pending: PendingTask): void {
    if (this.queue.remove(pending)) failUnstarted(pending, cancelledTaskError(this.options.name));
  }
}
