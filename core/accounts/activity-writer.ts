import { randomUUID } from 'node:crypto';
import type { AccountStore, ActivityPart, FailedUsageRecord, UsageRecord } from './account-store';
import { rowsCovered, withoutOldestRows } from './activity-parts';

export interface ActivityWriterOptions {
  /** How long records wait to be written together; 0 = at the end of the current event-loop turn. */
  readonly flushIntervalMs: number;
  /** Usage rows kept while the store fails, and as many failures; the oldest are dropped beyond it. */
  readonly maxPendingUsage: number;
  /** Told about a failed write; the records are kept and tried again after `RETRY_DELAY_MS`. */
  readonly onError: (error: unknown) => void;
  /**
   * A key's `lastUsedAt` is written at most once in this long (0: with every batch). Reads still
   * see each key's newest use (`pendingLastUse`); a crash loses at most this much of it.
   */
  readonly lastUseResolutionMs?: number;
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
 * Writes what requests leave behind (a key's `lastUsedAt`, usage rows, failures) in batches, off the
 * request path: one transaction per interval instead of one write per request. Best effort: a
 * failing store (a full disk) never fails a request; the batch is kept and retried.
 */
export class ActivityWriter {
  private touches = new Map<string, number>();
  /** The use last written for each key written within the resolution (older ones are due anyway). */
  private lastWritten = new Map<string, number>();
  private usage: UsageRecord[] = [];
  private failures: FailedUsageRecord[] = [];
  /** One promise per batch rather than per row: rows wait up to an interval, and under load a per-row promise and its closure outlived V8's young generation. */
  private nextBatch: BatchWritten | undefined;
  /** The next write, and when it runs. */
  private scheduled: { cancel(): void; readonly at: number } | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** When the uses not yet due must be written: fixed when the first is left, so that sooner writes cannot put it off. */
  private usesDueAt: number | undefined;
  /** Names this writer's parts in the store, which skips the parts it already holds. */
  private readonly writerId = randomUUID();
  private partsNumbered = 0;
  /**
   * Parts of a failed write, covering the oldest queued rows: its COMMIT may have gone through
   * all the same (its answer lost), so they are sent again under their numbers, never renumbered.
   */
  private unsettledParts: ActivityPart[] = [];

  constructor(
    private readonly store: AccountStore,
    private readonly options: ActivityWriterOptions,
  ) {}

  touch(keyId: string, usedAt: number): void {
    if ((this.touches.get(keyId) ?? 0) < usedAt) this.touches.set(keyId, usedAt);
    // A key in steady use would otherwise cost a disk write every interval (a keyed read wrote 1 to 4 KB a second).
    if (this.isDue(keyId, usedAt)) this.schedule();
    else this.scheduleUses();
  }

  /**
   * Queues a usage row; resolves (never rejects) once the write of the batch it joined has
   * finished: stored, or failed and reported (the row is then kept for the next try, unless
   * `maxPendingUsage` newer rows pushed it out).
   */
  record(record: UsageRecord): Promise<void> {
    return this.queue(this.usage, record, 'usage');
  }

  /** Queues a failed synthesis, as `record` queues a usage row. */
  recordFailure(failure: FailedUsageRecord): Promise<void> {
    return this.queue(this.failures, failure, 'failures');
  }

  /** The newest use of a key not yet written, so that reads can show it. */
  pendingLastUse(keyId: string): number | undefined {
    return this.touches.get(keyId);
  }

  /** Writes everything queued now (after any write under way), key uses not yet due included. */
  flush(): Promise<void> {
    return this.startWrite(true);
  }

  private queue<Entry>(entries: Entry[], entry: Entry, kind: 'usage' | 'failures'): Promise<void> {
    entries.push(entry);
    if (entries.length > this.options.maxPendingUsage) {
      entries.shift();
      this.unsettledParts = withoutOldestRows(this.unsettledParts, kind, 1);
    }
    this.nextBatch ??= batchWritten();
    this.schedule();
    return this.nextBatch.promise;
  }

  private startWrite(everyUse: boolean): Promise<void> {
    this.scheduled?.cancel();
    this.scheduled = undefined;
    this.writing = this.writing.then(() => this.write(everyUse));
    return this.writing;
  }

  /** A write that takes every use, at the latest one resolution after the first use left waiting. */
  private scheduleUses(): void {
    this.usesDueAt ??= Date.now() + this.resolutionMs();
    this.schedule(Math.max(0, this.usesDueAt - Date.now()), true);
  }

  private resolutionMs(): number {
    return this.options.lastUseResolutionMs ?? 0;
  }

  private isDue(keyId: string, usedAt: number): boolean {
    const written = this.lastWritten.get(keyId);
    return written === undefined || usedAt - written >= this.resolutionMs();
  }

  /** The key uses to write now; those not due stay queued. */
  private takeTouches(everyUse: boolean): Map<string, number> {
    // A sooner write (a usage row) that reaches the time the waiting uses are due takes them too.
    if (everyUse || this.resolutionMs() === 0 || (this.usesDueAt !== undefined && Date.now() >= this.usesDueAt)) {
      const all = this.touches;
      this.touches = new Map();
      this.usesDueAt = undefined;
      return all;
    }
    const due = new Map<string, number>();
    for (const [keyId, usedAt] of this.touches) {
      if (!this.isDue(keyId, usedAt)) continue;
      due.set(keyId, usedAt);
      this.touches.delete(keyId);
    }
    return due;
  }

  /** Remembers what was written; forgets keys whose last write is past the resolution (their next use is due anyway). */
  private noteWritten(touches: ReadonlyMap<string, number>): void {
    const resolutionMs = this.resolutionMs();
    if (resolutionMs === 0) return;
    let newest = 0;
    for (const [keyId, usedAt] of touches) {
      this.lastWritten.set(keyId, usedAt);
      newest = Math.max(newest, usedAt);
    }
    for (const [keyId, writtenAt] of this.lastWritten) if (newest - writtenAt >= resolutionMs) this.lastWritten.delete(keyId);
  }

  /**
   * `everyUse`: the write also takes key uses not yet due (a timer one resolution away: by then
   * they are). A sooner write replaces a later one (a usage row never waits for a key's
   * resolution); the uses it leaves are then scheduled again after it.
   */
  private schedule(delayMs = this.options.flushIntervalMs, everyUse = false): void {
    const at = Date.now() + delayMs;
    if (this.scheduled && this.scheduled.at <= at) return;
    this.scheduled?.cancel();
    const run = () => {
      this.scheduled = undefined;
      void this.startWrite(everyUse);
    };
    if (delayMs > 0) {
      const timer = setTimeout(run, delayMs);
      timer.unref();
      this.scheduled = { cancel: () => clearTimeout(timer), at };
    } else {
      const immediate = setImmediate(run);
      this.scheduled = { cancel: () => clearImmediate(immediate), at };
    }
  }

  private async write(everyUse: boolean): Promise<void> {
    const touches = this.takeTouches(everyUse);
    const { usage, failures } = this;
    const parts = this.partsOf(usage.length, failures.length);
    const written = this.nextBatch;
    this.usage = [];
    this.failures = [];
    this.unsettledParts = [];
    this.nextBatch = undefined;
    try {
      if (touches.size > 0 || usage.length > 0 || failures.length > 0) {
        await this.store.recordActivity({ touches, usage, failures, sender: { writerId: this.writerId, parts } });
        this.noteWritten(touches);
      }
    } catch (error) {
      this.options.onError(error);
      // The retry, after RETRY_DELAY_MS, takes the uses too: scheduling them sooner would defeat
      // that delay (with no resolution, a closed store was retried in a busy loop).
      this.requeue(touches, usage, failures, parts);
      return;
    } finally {
      written?.settle();
    }
    // Uses not due yet are written when due (one resolution after the first of them), unless a flush comes first.
    if (this.touches.size > 0) this.scheduleUses();
  }

  /** The parts of a write of these rows: the unsettled ones (the oldest rows), then one new part for the rest. */
  private partsOf(usageRows: number, failureRows: number): ActivityPart[] {
    const covered = rowsCovered(this.unsettledParts);
    const usage = usageRows - covered.usage;
    const failures = failureRows - covered.failures;
    if (usage + failures === 0) return this.unsettledParts;
    this.partsNumbered += 1;
    return [...this.unsettledParts, { number: this.partsNumbered, usage, failures }];
  }

  /** Puts a failed batch back, newer touches winning, so the next write tries it again, its parts unchanged. */
  private requeue(touches: ReadonlyMap<string, number>, usage: readonly UsageRecord[], failures: readonly FailedUsageRecord[], parts: ActivityPart[]): void {
    for (const [keyId, usedAt] of touches) {
      if ((this.touches.get(keyId) ?? 0) < usedAt) this.touches.set(keyId, usedAt);
    }
    const { maxPendingUsage } = this.options;
    const droppedUsage = Math.max(0, usage.length + this.usage.length - maxPendingUsage);
    const droppedFailures = Math.max(0, failures.length + this.failures.length - maxPendingUsage);
    this.unsettledParts = withoutOldestRows(withoutOldestRows(parts, 'usage', droppedUsage), 'failures', droppedFailures);
    this.usage = [...usage, ...this.usage].slice(-maxPendingUsage);
    this.failures = [...failures, ...this.failures].slice(-maxPendingUsage);
    this.scheduled?.cancel();
    this.scheduled = undefined;
    this.schedule(Math.max(this.options.flushIntervalMs, RETRY_DELAY_MS));
  }
}
