import type { Socket } from 'node:net';

type Write = Socket['_write'];
type Writev = NonNullable<Socket['_writev']>;

/** A write handed to the socket's own implementation, held until the pass ends. */
interface HeldWrite {
  readonly socket: Socket;
  readonly write: Write | Writev;
  readonly args: Parameters<Write> | Parameters<Writev>;
}

let held: HeldWrite[] = [];
let flushScheduled = false;

/**
 * Makes one held write. Its callbacks may run in it (the answer's 'finish' listeners): one that
 * throws is thrown again on its own tick, an uncaught exception as it would have been without
 * the hold, and the pass's other writes still go out.
 */
function perform({ socket, write, args }: HeldWrite): void {
  try {
    (write as (...forwarded: unknown[]) => void).apply(socket, args);
  } catch (error) {
    process.nextTick(() => {
      throw error;
    });
  }
}

/** Writes made meanwhile (the next piece a Writable had buffered) join this flush. */
function flushHeldWrites(): void {
  while (held.length > 0) {
    const writes = held;
    held = [];
    for (const write of writes) perform(write);
  }
  flushScheduled = false;
}

/** Makes the socket's held write now: Node writes a last answer (a 408, a 400) and destroys at once. */
function flushHeldWriteOf(socket: Socket): void {
  const index = held.findIndex((write) => write.socket === socket);
  if (index >= 0) perform(held.splice(index, 1)[0]);
}

function hold(write: HeldWrite): void {
  held.push(write);
  if (flushScheduled) return;
  flushScheduled = true;
  // The check phase: right after the poll phase has run every socket event of this pass.
  setImmediate(flushHeldWrites);
}

/**
 * Holds the socket's writes to the end of the event loop's pass, then makes them one after
 * another (what Netty calls flush consolidation). Each write still goes to the kernel on its
 * own, but a reader on this machine (a load generator, an app beside its sidecar gateway) is
 * woken once for the pass's answers instead of once for each: on a small VM that halts an idle
 * CPU at once, each of those wake-ups cost more than the write. It works at the stream
 * implementation's own hooks (`_write`, `_writev`), so the Writable keeps its order, its
 * backpressure and its callbacks: a held write is simply one still being written (the Writable
 * hands over one at a time per socket). A socket destroyed meanwhile makes its held write first,
 * as it would have been made before the destroy without the hold; what the Writable still
 * buffered behind it is dropped, as any destroy drops it.
 */
export function holdWritesToPassEnd(socket: Socket): void {
  const write = socket._write;
  const writev = socket._writev;
  const destroy = socket._destroy;
  socket._destroy = function flushThenDestroy(this: Socket, ...args: Parameters<Socket['_destroy']>): void {
    flushHeldWriteOf(this);
    destroy.apply(this, args);
  };
  socket._write = function heldWrite(this: Socket, ...args: Parameters<Write>): void {
    hold({ socket: this, write, args });
  };
  if (writev)
    socket._writev = function heldWritev(this: Socket, ...args: Parameters<Writev>): void {
      hold({ socket: this, write: writev, args });
    };
}
