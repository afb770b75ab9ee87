import type { Response } from 'express';
import { gatewayError } from '../core';

/** An AbortSignal that fires when the client goes away before the answer is complete. */
export interface DisconnectSignal {
  readonly signal: AbortSignal;
  /** Stops watching (call once the work is done). */
  dispose(): void;
}

export function abortOnDisconnect(response: Response): DisconnectSignal {
  const controller = new AbortController();
  const onClose = (): void => {
    if (!response.writableFinished) controller.abort(gatewayError('TTS_ERR_CANCELLED', { subject: 'The request (the client went away)' }));
  };
  // A client that left during an earlier step (the key check, the limits) had its 'close' already.
  if (response.destroyed) onClose();
  else response.once('close', onClose);
  return { signal: controller.signal, dispose: () => response.off('close', onClose) };
}
