import { abortedByDeadline } from '../abort/linked-abort';
import { raceAbort } from '../abort/race-abort';
import { gatewayError, isGatewayError, type GatewayError } from '../errors';

export { abortedByDeadline };

/** The error of an attempt that the deadline cut short: a 504, whatever the provider made of it. */
export function deadlineError(instanceId: string, cause: unknown): GatewayError {
  if (isGatewayError(cause) && cause.code === 'TTS_ERR_TIMEOUT') return cause;
  return gatewayError('TTS_ERR_TIMEOUT', { subject: instanceId, limit: "the request's deadline" }, { details: [{ reason: 'deadline', provider: instanceId }], cause });
}

/** The reason an aborted signal gives, as a coded error. */
export function abortError(instanceId: string, signal: AbortSignal): GatewayError {
  if (abortedByDeadline(signal)) return deadlineError(instanceId, signal.reason);
  return isGatewayError(signal.reason) ? signal.reason : gatewayError('TTS_ERR_CANCELLED', { subject: 'The request' }, { cause: signal.reason });
}

/**
 * Settles with `work`, or rejects as soon as `signal` aborts: a provider that ignores its
 * signal still cannot hold the answer past the deadline.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal, instanceId: string): Promise<T> {
  return raceAbort(work, signal, () => abortError(instanceId, signal));
}

/** Waits `milliseconds`, or rejects when `signal` aborts first. */
export function pause(milliseconds: number, signal: AbortSignal, instanceId: string): Promise<void> {
  if (signal.aborted) return Promise.reject(abortError(instanceId, signal));
  if (milliseconds <= 0) return Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, milliseconds);
  });
  return untilAborted(waited, signal, instanceId).finally(() => clearTimeout(timer));
}
