import { gatewayError, isGatewayError } from '../errors';

/**
 * A synthesis failure as the client should read it: past the deadline a 504 (whatever the
 * failure was), a client that went away a cancel; anything else as it is.
 */
export function explainFailure(error: unknown, clientSignal: AbortSignal | undefined, deadlinePassed: boolean, timeoutMs: number): unknown {
  if (deadlinePassed && !(isGatewayError(error) && error.code === 'TTS_ERR_TIMEOUT')) {
    return gatewayError('TTS_ERR_TIMEOUT', { subject: 'The synthesis', limit: `${timeoutMs} ms` }, { cause: error });
  }
  if (clientSignal?.aborted && !isGatewayError(error)) return gatewayError('TTS_ERR_CANCELLED', { subject: 'The synthesis (the client went away)' }, { cause: error });
  return error;
}
