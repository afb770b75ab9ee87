import type { RouteTarget } from './ports';

/** The target each failure of a request came from, by the failure itself. */
const targetOfFailure = new WeakMap<object, RouteTarget>();
/** How far down a failure's `cause` chain its target is looked for (a 504 wraps what the deadline cut). */
const CAUSE_DEPTH = 4;

/** Records that `failure` is `target`'s; the first record stands (the one nearest the failure knows it best). */
export function blameTarget(failure: unknown, target: RouteTarget): void {
  if (typeof failure === 'object' && failure !== null && !targetOfFailure.has(failure)) targetOfFailure.set(failure, target);
}

/**
 * The target whose failure a request answers, when one was tried: a route's failure is counted
 * under that target's provider, since a route's name says nothing of the provider it chose.
 */
export function failedTarget(failure: unknown): RouteTarget | undefined {
  let current = failure;
  for (let depth = 0; depth <= CAUSE_DEPTH && typeof current === 'object' && current !== null; depth += 1) {
    const target = targetOfFailure.get(current);
    if (target) return target;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
