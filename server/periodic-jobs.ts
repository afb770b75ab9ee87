import type { AccountService, AudioProcessor, Logger, Metrics } from '../core';
import { unexpectedErrorFields } from './unexpected-error';

/** How often expired API keys are deleted. */
const KEY_SWEEP_INTERVAL_MS = 10 * 60_000;
/** How often the audio queue depth is sampled for the metrics. */
const QUEUE_GAUGE_INTERVAL_MS = 1000;

/** The audio pool's queue depth for the metrics, every second (0 before the pool starts). */
export function reportQueueDepth(metrics: Metrics, processor: () => AudioProcessor | undefined): () => void {
  const timer = setInterval(() => metrics.audioQueueDepth(processor()?.queuedTasks ?? 0), QUEUE_GAUGE_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** Deletes expired API keys now and every ten minutes; answers how to stop it. */
export function startKeySweeper(accounts: AccountService, logger: Logger): () => void {
  const sweep = () =>
    void accounts.sweepExpiredKeys().then(
      (deleted) => deleted > 0 && logger.info('expired API keys deleted', { deleted }),
      (error: unknown) => logger.warn('API key sweep failed', { ...unexpectedErrorFields(error) }),
    );
  sweep();
  const timer = setInterval(sweep, KEY_SWEEP_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
