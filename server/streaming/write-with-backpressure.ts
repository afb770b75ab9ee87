import type { Response } from 'express';

/**
 * Writes one piece and, when the socket's buffer is full, waits until it drains, so a slow
 * reader slows the synthesis down instead of the gateway buffering its audio. Resolves false when
 * the client went away (or the answer failed) first. Plain listeners: no abort signal per wait.
 */
export async function writeWithBackpressure(response: Response, piece: Uint8Array | string): Promise<boolean> {
  if (response.destroyed || response.writableEnded) return false;
  corkUntilLoopPassEnds(response);
  if (response.write(piece)) return true;
  return new Promise<boolean>((resolve) => {
    const settle = (drained: boolean): void => {
      response.off('drain', onDrain);
      response.off('close', onGone);
      response.off('error', onGone);
      resolve(drained);
    };
    const onDrain = (): void => settle(true);
    const onGone = (): void => settle(false);
    response.once('drain', onDrain);
    response.once('close', onGone);
    response.once('error', onGone);
  });
}

const corkedThisPass = new WeakSet<Response>();

/**
 * Holds the socket's writes until the event loop's current pass is over (setImmediate: a
 * stream's 'end' comes a tick after its last data), so what is made in one pass (often the last
 * piece and `end()`, which uncorks fully) leaves in one system call and wakes the client once.
 * A stream whose next piece takes longer is not delayed: the hold ends with the pass.
 */
function corkUntilLoopPassEnds(response: Response): void {
  if (corkedThisPass.has(response)) return;
  corkedThisPass.add(response);
  response.cork();
  setImmediate(() => {
    corkedThisPass.delete(response);
    if (!response.writableEnded) response.uncork();
  });
}
