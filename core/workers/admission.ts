import { gatewayError, type GatewayError } from '../errors';
import type { Reservations } from './reservations';
import type { TaskQueue } from './task-queue';
import type { WorkerPin } from './worker-pin';
import type { WorkerSlot } from './worker-slot';

export interface AdmissionSettings {
  /** The pool's name, for the refusals. */
  readonly name: string;
  readonly maxQueued: number;
  /** Share of the time left before a deadline that a task may use in this pool. */
  readonly admissionShare: number;
}

/**
 * Load shedding: refuses at once (503 with Retry-After) work the queue has no room for, or that
 * could not finish by its deadline behind the work running, queued and promised, by the pool's
 * measured rates. Refusing early beats burning CPU on work that would time out anyway.
 */
export class Admission {
  constructor(
    private readonly settings: AdmissionSettings,
    private readonly slots: readonly WorkerSlot[],
    private readonly queue: TaskQueue,
    private readonly reservations: Reservations,
  ) {}

  /** Why a task expected to take `expectedMs` is refused, or undefined when it is taken. */
  refusal(now: number, orderKey: number, expectedMs: number, task: { readonly deadline?: number; readonly pin?: WorkerPin }): GatewayError | undefined {
    const waitMs = this.estimatedWaitMs(orderKey, task.pin);
    if (this.queue.length >= this.settings.maxQueued) return this.overloaded(`its queue is full (${this.settings.maxQueued} tasks)`, waitMs);
    if (task.deadline !== undefined && waitMs + expectedMs > (task.deadline - now) * this.settings.admissionShare) {
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
    for (const pending of this.queue.aheadOf(orderKey)) {
      if (pending.pin === undefined || relevant(pending.pin.worker)) work += pending.expectedMs;
    }
    // Promised work is unpinned and will be served by its deadline like the queued work.
    if (pin === undefined) work += this.reservations.expectedMsAheadOf(orderKey);
    return pin === undefined ? work / this.slots.length : work;
  }

  private overloaded(reason: string, waitMs: number): GatewayError {
    const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
    return gatewayError('TTS_ERR_UNAVAILABLE', { provider: `The ${this.settings.name} pool`, reason: `${reason}; retry in ${retryAfterSeconds} s` }, {
      retryAfterSeconds,
      details: [{ reason: 'overloaded', pool: this.settings.name }],
    });
  }
}
