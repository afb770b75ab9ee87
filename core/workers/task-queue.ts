import type { PendingTask } from './pending-task';

/**
 * The tasks waiting for a worker, earliest deadline (`orderKey`) first, so that work already
 * under way finishes before newer work starts. Equal keys keep their arrival order.
 */
export class TaskQueue {
  private readonly tasks: PendingTask[] = [];

  get length(): number {
    return this.tasks.length;
  }

  add(pending: PendingTask): void {
    // Binary search for the first task ordered after this one (equal keys keep arrival order).
    let low = 0;
    let high = this.tasks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.tasks[middle].orderKey <= pending.orderKey) low = middle + 1;
      else high = middle;
    }
    this.tasks.splice(low, 0, pending);
  }

  /** Takes out the first task this worker may run: an unpinned one, or one pinned to it. */
  takeNextFor(worker: number): PendingTask | undefined {
    const position = this.tasks.findIndex((pending) => pending.pin === undefined || pending.pin.worker === worker);
    return position < 0 ? undefined : this.tasks.splice(position, 1)[0];
  }

  /** Takes out every task pinned to this worker. */
  takePinnedTo(worker: number): PendingTask[] {
    const pinned = this.tasks.filter((pending) => pending.pin?.worker === worker);
    for (const pending of pinned) this.tasks.splice(this.tasks.indexOf(pending), 1);
    return pinned;
  }

  takeAll(): PendingTask[] {
    return this.tasks.splice(0);
  }

  /** Takes out the task if it still waits; false when it is no longer in the queue. */
  remove(pending: PendingTask): boolean {
    const position = this.tasks.indexOf(pending);
    if (position < 0) return false;
    this.tasks.splice(position, 1);
    return true;
  }

  /** The waiting tasks a new task with this order key would wait behind, in queue order. */
  *aheadOf(orderKey: number): Generator<PendingTask> {
    for (const pending of this.tasks) {
      if (pending.orderKey > orderKey) return;
      yield pending;
    }
  }
}
