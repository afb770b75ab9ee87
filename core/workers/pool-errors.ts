import { ERROR_CATALOGUE, GatewayError, gatewayError, type ErrorCode } from '../errors';

/** How a pool answers a task it will not run, worded once for every place that refuses. */
export function poolClosed(name: string, reason: 'it is closed' | 'it closed'): GatewayError {
  return gatewayError('TTS_ERR_UNAVAILABLE', { provider: `The ${name} pool`, reason });
}

/** A worker's coded error keeps its code; anything else is an internal failure. */
export function workerFailure(name: string, error: { message: string; code?: string }): GatewayError {
  if (error.code && error.code in ERROR_CATALOGUE) return new GatewayError(error.code as ErrorCode, error.message);
  return gatewayError('TTS_ERR_INTERNAL', { problem: `${name} task failed: ${error.message}` });
}

export function cancelled(name: string): GatewayError {
  return gatewayError('TTS_ERR_CANCELLED', { subject: `The ${name} task` });
}

export function lostState(name: string): GatewayError {
  return gatewayError('TTS_ERR_INTERNAL', { problem: `${name} worker crashed: the state this task needs is lost` });
}
