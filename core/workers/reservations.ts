/**
 * Room promised to work that will come later (the processing of a whole file, once its text is
 * synthesized): counted as work ahead of newer tasks until the work is run or the promise dropped.
 */
export interface PoolReservation {
  /** Gives the room back (the work came, or never will). Idempotent. */
  release(): void;
}

interface PromisedRoom {
  readonly orderKey: number;
  readonly expectedMs: number;
}

/** The room a pool has promised and that is not yet taken up or given back. */
export class Reservations {
  private readonly promised = new Set<PromisedRoom>();

  get size(): number {
    return this.promised.size;
  }

  add(orderKey: number, expectedMs: number): PoolReservation {
    const room: PromisedRoom = { orderKey, expectedMs };
    this.promised.add(room);
    return { release: () => void this.promised.delete(room) };
  }

  /** The promised work that would be served before a task with this order key. */
  expectedMsAheadOf(orderKey: number): number {
    let work = 0;
    for (const room of this.promised) if (room.orderKey <= orderKey) work += room.expectedMs;
    return work;
  }
}
