import type { TransferListItem } from 'node:worker_threads';
import type { WorkerPin } from './worker-pin';
import type { TaskCost } from './work-rates';
import type { TaskMessage } from './worker-protocol';

/** A task given to the pool, from `run` until it settles: waiting in the queue, then running. */
export interface PendingTask {
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
  /** One Int32 shared with the worker: 1 once the caller gave up while the task ran. */
  readonly cancelFlag: SharedArrayBuffer;
  startedAt?: number;
}

/** Rejects a task that never ran, letting go of its payload and listener. */
export function failUnstarted(pending: PendingTask, error: Error): void {
  pending.detach();
  pending.payload = undefined;
  pending.reject(error);
}

/** Tells the worker running the task that its caller gave up (a handler that polls it stops early). */
export function raiseCancelFlag(cancelFlag: SharedArrayBuffer): void {
  Atomics.store(new Int32Array(cancelFlag), 0, 1);
}

export function isCancelled(pending: PendingTask): boolean {
  return Atomics.load(new Int32Array(pending.cancelFlag), 0) !== 0;
}
