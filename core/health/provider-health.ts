/** One provider instance as the readiness check reports it. */
export interface ProviderStatus {
  readonly id: string;
  /** `unavailable`: it serves no model, or the reliability layer took it out (an open breaker). */
  readonly status: 'ready' | 'unavailable';
  /** How many catalog models it serves. */
  readonly models: number;
  /** Its last failure, safe to show: plugins' messages are scrubbed of credentials. */
  readonly lastError?: string;
  /** Unix milliseconds of `lastError`. */
  readonly lastErrorAt?: number;
}

interface Entry {
  models: number;
  available: boolean;
  lastError?: string;
  lastErrorAt?: number;
}

const MAX_ERROR_LENGTH = 300;

/**
 * What the gateway knows about each provider's health: the start-up listing, and whatever
 * the synthesis and reliability layers report later (failures, a breaker opening or closing).
 */
export class ProviderHealth {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A provider as loaded: ready when it serves models, else unavailable with the listing error. */
  add(id: string, models: number, listingError?: string): void {
    this.entries.set(id, { models, available: models > 0 });
    if (listingError !== undefined) this.recordError(id, listingError);
  }

  /** Keeps the last failure; the state is unchanged (one failed call does not make a provider unavailable). */
  recordError(id: string, message: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    entry.lastError = message.slice(0, MAX_ERROR_LENGTH);
    entry.lastErrorAt = this.now();
  }

  /** Marks a provider (un)available, for example while its breaker is open or after re-listing. */
  setAvailable(id: string, available: boolean, models?: number): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    if (models !== undefined) entry.models = models;
    entry.available = available && entry.models > 0;
  }

  list(): ProviderStatus[] {
    return [...this.entries].map(([id, entry]) => ({
      id,
      status: entry.available ? 'ready' : 'unavailable',
      models: entry.models,
      ...(entry.lastError !== undefined && { lastError: entry.lastError, lastErrorAt: entry.lastErrorAt }),
    }));
  }
}
