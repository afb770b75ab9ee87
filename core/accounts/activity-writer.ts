import type { AccountStore, UsageRecord } from './account-store';

export interface ActivityWriterOptions {
  /** How long records wait to be written together; 0 = at the end of the current event-loop turn. */
  readonly flushIntervalMs: number;
  /** Usage rows kept while the store fails; the oldest are dropped beyond it. */
  readonly maxPendingUsage: number;
  /** Told about a failed write; the records are kept and tried again after `RETRY_DELAY_MS`. */
  readonly onError: (error: unknown) => void;
}

/** A failing store (a full disk) is retried this often at most, not on every request. */
const RETRY_DELAY_MS = 1000;

/** The promise the rows of one batch share, settled once that batch's write is over. */
interface BatchWritten {
  readonly promise: Promise<void>;
  readonly settle: () => void;
}

function batchWritten(): BatchWritten {
  let settle!: () => void;
  const promise = new Promise<void>((resolve) => (settle = resolve));
  return { promise, settle };
}

/**
 * Writes what requests leave behind (a key's `lastUsedAt`, usage rows) in batches, off the
 * request path: one transaction per interval instead of one write per request. Best effort: a
 * failing store (a full disk) never fails a request; the batch is kept and retried.
 */
export class ActivityWriter {
  private touches = new Map<string, number>();
  private usage: UsageRecord[] = [];
  /** One promise per batch rather than per row: rows wait up to an interval, and under load a per-row promise and its closure outlived V8's young generation. */
  private nextBatch: BatchWritten | undefined;
  private scheduled: { cancel(): void } | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: AccountStore,
    private readonly options: ActivityWriterOptions,
  ) {}

  touch(keyId: string, usedAt: number): void {
    if ((this.touches.get(keyId) ?? 0) < usedAt) this.touches.set(keyId, usedAt);
    this.schedule();
  }

  /**
   * Queues a usage row; resolves (never rejects) once the write of the batch it joined has
   * finished: stored, or failed and reported (the row is then kept for the next try, unless
   * `maxPendingUsage` newer rows pushed it out).
   */
  record(record: UsageRecord): Promise<void> {
    this.usage.push(record);
    if (this.usage.length > this.options.maxPendingUsage) this.usage.shift();
    this.nextBatch ??= batchWritten();
    this.schedule();
    return this.nextBatch.promise;
  }

  /** The newest use of a key not yet written, so that reads can show it. */
  pendingLastUse(keyId: string): number | undefined {
    return this.touches.get(keyId);
  }

  /** Writes everything queued now (after any write under way). */
  flush(): Promise<void> {
    this.scheduled?.cancel();
    this.scheduled = undefined;
    this.writing = this.writing.then(() => this.write());
    return this.writing;
  }

  private schedule(delayMs = this.options.flushIntervalMs): void {
    if (this.scheduled) return;
    const run = () => {
      this.scheduled = undefined;
      void this.flush();
    };
    if (delayMs > 0) {
      const timer = setTimeout(run, delayMs);
      timer.unref();
      this.scheduled = { cancel: () => clearTimeout(timer) };
    } else {
      const immediate = setImmediate(run);
      this.scheduled = { cancel: () => clearImmediate(immediate) };
    }
  }

  private async write(): Promise<void> {
    if (this.touches.size === 0 && this.usage.length === 0) return;
    const touches = this.touches;
    const usage = this.usage;
    const written = this.nextBatch;
    this.touches = new Map();
    this.usage = [];
    this.nextBatch = undefined;
    try {
      await this.store.recordActivity({ touches, usage });
    } catch (error) {
      this.options.onError(error);
      this.requeue(touches, usage);
    } finally {
      written?.settle();
    }
  }

  /** Puts a failed batch back, newer touches winning, so the next write tries it again. */
  private requeue(touches: ReadonlyMap<string, number>, usage: readonly UsageRecord[]): void {
    for (const [keyId, usedAt] of touches) {
      if ((this.touches.get(keyId) ?? 0) < usedAt) this.touches.set(keyId, usedAt);
    }
    this.usage = [...usage, ...this.usage].slice(-this.options.maxPendingUsage);
    this.scheduled?.cancel();
    this.scheduled = undefined;
    this.schedule(Math.max(this.options.flushIntervalMs, RETRY_DELAY_MS));
  }
}
