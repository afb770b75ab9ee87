import { ERROR_CATALOGUE, GatewayError, gatewayError, type ErrorCode } from '../errors';

/** `it is closed` refuses new work; `it closed` fails the work that was waiting. */
export function closedPoolError(name: string, reason: 'it is closed' | 'it closed'): GatewayError {
  return gatewayError('TTS_ERR_UNAVAILABLE', { provider: `The ${name} pool`, reason });
}

/** A worker's coded error keeps its code; anything else is an internal failure. */
export function workerFailure(name: string, error: { message: string; code?: string }): GatewayError {
  if (error.code && error.code in ERROR_CATALOGUE) return new GatewayError(error.code as ErrorCode, error.message);
  return gatewayError('TTS_ERR_INTERNAL', { problem: `${name} task failed: ${error.message}` });
}

export function cancelledTaskError(name: string): GatewayError {
  return gatewayError('TTS_ERR_CANCELLED', { subject: `The ${name} task` });
}

export function lostStateError(name: string): GatewayError {
  return gatewayError('TTS_ERR_INTERNAL', { problem: `${name} worker crashed: the state this task needs is lost` });
}
