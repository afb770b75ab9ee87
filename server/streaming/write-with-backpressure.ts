import { once } from 'node:events';
import type { Response } from 'express';

/**
 * Writes one piece and, when the socket's buffer is full, waits until it drains, so a slow
 * reader slows the synthesis down instead of the gateway buffering its audio. Resolves false when
 * the client went away first.
 */
export async function writeWithBackpressure(response: Response, piece: Uint8Array | string): Promise<boolean> {
  if (response.destroyed || response.writableEnded) return false;
  if (response.write(piece)) return true;
  const closed = new AbortController();
  const onClose = (): void => closed.abort();
  response.once('close', onClose);
  try {
    await once(response, 'drain', { signal: closed.signal });
    return true;
  } catch {
    return false;
  } finally {
    response.off('close', onClose);
  }
}
