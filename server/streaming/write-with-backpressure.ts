import type { Response } from 'express';

/**
 * Writes one piece and, when the socket's buffer is full, waits until it drains, so a slow
 * reader slows the synthesis down instead of the gateway buffering its audio. Resolves false when
 * the client went away (or the answer failed) first. Plain listeners: no abort signal per wait.
 */
export async function writeWithBackpressure(response: Response, piece: Uint8Array | string): Promise<boolean> {
  if (response.destroyed || response.writableEnded) return false;
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
