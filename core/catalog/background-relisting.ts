import { raceTimeLimit } from '../abort/race-time-limit';
import { redactSecrets } from '../http';
import type { Logger } from '../plugin/contract';
import { DEFAULT_MODELS_TIMEOUT_MS, type LoadedProvider } from '../plugin/plugin-loader';
import type { Catalog } from './catalog';

export interface BackgroundRelistingOptions {
  /** Wait before the first new attempt; doubled after each failure. */
  readonly initialDelayMs: number;
  /** Longest wait between two attempts. */
  readonly maxDelayMs: number;
  /** Deadline of one listing call; default 30 s. */
  readonly timeoutMs?: number;
  readonly logger: Logger;
  /** Source of the jitter; tests pass a fixed one. */
  readonly random?: () => number;
}

/**
 * Asks every provider whose model listing failed at start again, with exponential backoff
 * (half jitter), until it answers; its models then join the catalog, with no restart.
 */
export class BackgroundRelisting {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly stopped = new AbortController();

  constructor(
    private readonly catalog: Catalog,
    private readonly options: BackgroundRelistingOptions,
  ) {}

  start(): void {
    for (const instance of this.catalog.unavailableProviders()) {
      if (instance.relist) this.schedule(instance, 1);
    }
  }

  stop(): void {
    this.stopped.abort();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private schedule(instance: LoadedProvider, attempt: number): void {
    if (this.stopped.signal.aborted) return;
    const ceiling = Math.min(this.options.maxDelayMs, this.options.initialDelayMs * 2 ** (attempt - 1));
    const delayMs = Math.round(ceiling / 2 + ((this.options.random ?? Math.random)() * ceiling) / 2);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.relist(instance, attempt);
    }, delayMs);
    // Waiting to list again must not keep a process alive on its own.
    timer.unref();
    this.timers.add(timer);
  }

  private async relist(instance: LoadedProvider, attempt: number): Promise<void> {
    const relist = instance.relist;
    if (!relist || this.stopped.signal.aborted) return;
    const limitMs = this.options.timeoutMs ?? DEFAULT_MODELS_TIMEOUT_MS;
    const signal = AbortSignal.any([this.stopped.signal, AbortSignal.timeout(limitMs)]);
    try {
      // Raced as well as signalled: a listing that ignores its signal would end the retries for good.
      const selection = await raceTimeLimit(relist(signal), limitMs);
      if (this.stopped.signal.aborted) return;
      this.catalog.updateListing(instance.instanceId, selection);
      this.options.logger.info(`Provider "${instance.instanceId}" listed its models; it serves them now`, { provider: instance.instanceId, models: selection.models.length, attempts: attempt });
    } catch (error) {
      if (this.stopped.signal.aborted) return;
      this.options.logger.warn(`Provider "${instance.instanceId}" still cannot list its models; asking again later`, {
        provider: instance.instanceId,
        attempts: attempt,
        reason: redactSecrets(error instanceof Error ? error.message : String(error)),
      });
      this.schedule(instance, attempt + 1);
    }
  }
}
