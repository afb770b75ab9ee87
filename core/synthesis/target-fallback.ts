import { ERROR_CATALOGUE, isGatewayError, type GatewayError } from '../errors';
import { blameTarget } from './failed-target';
import type { RouteTarget } from './ports';

/** Failures of the gateway's own work once a target has answered (storing its audio): no fault of the target's. */
const pastTheTarget = new WeakSet<object>();

/**
 * Whether another target may answer what this one failed: the code's own word. A provider's
 * advice on retrying (OpenAI's x-should-retry) is about calling that provider again, so it
 * neither stops a fall to another provider nor starts one for a failure that would not fall.
 */
function worthAnotherTarget(error: GatewayError): boolean {
  return error.retryableStated === undefined ? error.retryable : ERROR_CATALOGUE[error.code].retryable;
}

/**
 * Rethrows a failure of the gateway's own (its audio store) as one no other target can cure:
 * falling back on it would only make another provider call (billed) that meets the same store.
 */
export function failedPastTheTarget(error: unknown): never {
  if (typeof error === 'object' && error !== null) pastTheTarget.add(error);
  throw error;
}

/**
 * Tries each target of the requested model in turn: a failure that another provider may not
 * have (retryable: 5xx, timeout, rate limit, open breaker) falls to the next target, after
 * `onFallback` is told; the client's own errors, a cancel, a passed deadline (`stopped`) and the
 * gateway's own failures (`failedPastTheTarget`) do not.
 * When a later target cannot take the request at all (a voice or format of the preferred
 * target's that it lacks), the provider failure that sent the request there is answered: the
 * client learns of an outage a retry may cure, not of a voice "not found" that it never asked for.
 */
export async function tryTargets<Result>(
  targets: readonly RouteTarget[],
  stopped: () => boolean,
  attempt: (target: RouteTarget, fallbackAvailable: boolean) => Promise<Result>,
  onFallback: (failed: RouteTarget, next: RouteTarget, error: GatewayError) => void,
): Promise<Result> {
  let providerFailure: GatewayError | undefined;
  for (let index = 0; ; index += 1) {
    try {
      return await attempt(targets[index], index < targets.length - 1);
    } catch (error) {
      blameTarget(error, targets[index]);
      if (stopped()) throw error;
      const retryable = isGatewayError(error) && worthAnotherTarget(error) && !pastTheTarget.has(error);
      if (!retryable) throw refusedByTarget(error) ? (providerFailure ?? error) : error;
      if (index === targets.length - 1) throw error;
      providerFailure = error;
      onFallback(targets[index], targets[index + 1], error);
    }
  }
}

/** A target's refusal of this request (a 4xx: its voices, its formats), as opposed to a failure of the gateway or the provider. */
function refusedByTarget(error: unknown): boolean {
  return isGatewayError(error) && error.status < 500;
}
