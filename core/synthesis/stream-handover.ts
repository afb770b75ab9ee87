/** How a started stream is handed to its reader: its first piece awaited against the start deadline, then the rest. */
import type { LinkedAbort } from '../abort/linked-abort';
import { raceAbort } from '../abort/race-abort';
import { closeBeforeStart } from './close-before-start';

/** Settles with `work`, or rejects with the signal's reason as soon as it aborts (the work is then abandoned). */
export function abortable<Value>(work: Promise<Value>, signal: AbortSignal): Promise<Value> {
  return raceAbort(work, signal, () => signal.reason);
}

/** The first piece (already made), then the rest; errors are explained, early exits stop the work, a close before the first read too. */
export function rest(first: IteratorResult<Uint8Array>, pieces: AsyncGenerator<Uint8Array>, stop: LinkedAbort, explain: (error: unknown) => unknown): AsyncIterable<Uint8Array> {
  return closeBeforeStart(restPieces(first, pieces, stop, explain), () => abandon(pieces, stop));
}

/** Stops the work behind a stream left before its end: its provider calls, then its pieces. */
async function abandon(pieces: AsyncGenerator<Uint8Array>, stop: LinkedAbort): Promise<void> {
  stop.abort();
  await pieces.return(undefined).catch(() => undefined);
}

async function* restPieces(
  first: IteratorResult<Uint8Array>,
  pieces: AsyncGenerator<Uint8Array>,
  stop: LinkedAbort,
  explain: (error: unknown) => unknown,
): AsyncGenerator<Uint8Array> {
  let finished = first.done === true;
  try {
    if (!first.done) yield first.value;
    while (!finished) {
      const next = await pieces.next();
      if (next.done) finished = true;
      else yield next.value;
    }
  } catch (error) {
    finished = true;
    throw explain(error);
  } finally {
    if (finished) stop.dispose();
    else await abandon(pieces, stop);
  }
}
