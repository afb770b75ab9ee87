import { isGatewayError, type GatewayError } from '../errors';
import type { RouteTarget } from './ports';

/**
 * Tries each target of the requested model in turn: a failure that another provider may not
 * have (retryable: 5xx, timeout, rate limit, open breaker) falls to the next target, after
 * `onFallback` is told; the client's own errors, a cancel and a passed deadline (`stopped`) do not.
 */
export async function tryTargets<Result>(
  targets: readonly RouteTarget[],
  stopped: () => boolean,
  attempt: (target: RouteTarget) => Promise<Result>,
  onFallback: (failed: RouteTarget, next: RouteTarget, error: GatewayError) => void,
): Promise<Result> {
  for (let index = 0; ; index += 1) {
    try {
      return await attempt(targets[index]);
    } catch (error) {
      const last = index === targets.length - 1;
      if (last || stopped() || !isGatewayError(error) || !error.retryable) throw error;
      onFallback(targets[index], targets[index + 1], error);
    }
  }
}
