import { isGatewayError } from '../errors';

export interface BackoffSettings {
  /** Base delay: the ceiling of the first retry's delay. */
  readonly backoffMs: number;
  /** Ceiling of any computed delay. */
  readonly maxBackoffMs: number;
}

/**
 * Delay before retry number `retry` (1 = the first retry): exponential backoff with full
 * jitter, a random wait between 0 and `backoff * 2^(retry-1)` (capped at `maxBackoff`), so that
 * many callers hit by one outage do not come back in step. An upstream Retry-After is a floor:
 * coming back earlier would only be refused again.
 */
export function retryDelayMs(retry: number, failure: unknown, settings: BackoffSettings, random: () => number = Math.random): number {
  const ceiling = Math.min(settings.maxBackoffMs, settings.backoffMs * 2 ** (retry - 1));
  const jittered = Math.floor(random() * ceiling);
  const retryAfterSeconds = isGatewayError(failure) ? failure.retryAfterSeconds : undefined;
  return retryAfterSeconds === undefined ? jittered : Math.max(jittered, retryAfterSeconds * 1000);
}
