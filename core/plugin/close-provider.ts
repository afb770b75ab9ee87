import { raceTimeLimit, TimeLimitExceeded } from '../abort/race-time-limit';
import { redactSecrets } from '../http';
import type { Logger, TtsProvider } from './contract';

/** Time a provider's `close()` is given before the gateway goes on without it. */
export const DEFAULT_CLOSE_TIMEOUT_MS = 10_000;

/**
 * Calls a provider's `close()` (if it has one) and waits for it at most `limitMs`. A close that
 * throws or does not finish is logged as a warning naming the provider, never thrown: one stuck
 * plugin must not keep the others and the stores from closing, nor the process from exiting.
 */
export async function closeProvider(provider: Partial<Pick<TtsProvider, 'close'>> | undefined, instanceId: string, logger: Logger, limitMs = DEFAULT_CLOSE_TIMEOUT_MS): Promise<void> {
  try {
    // Promise.resolve: a plugin's close() may throw at once, or answer no promise at all.
    await raceTimeLimit(Promise.resolve().then(() => provider?.close?.()), limitMs);
  } catch (error) {
    if (error instanceof TimeLimitExceeded) {
      logger.warn(`Provider "${instanceId}" did not close within ${limitMs / 1000} s; going on without it`, { provider: instanceId });
    } else {
      logger.warn(`Provider "${instanceId}" failed to close`, { provider: instanceId, reason: redactSecrets(error instanceof Error ? error.message : String(error)) });
    }
  }
}
