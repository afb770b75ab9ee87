import type { BoundedAddition } from '../limits/window-counters';

/** What one counter was given and refunded while Redis could not be reached. */
export interface JournalEntry {
  readonly key: string;
  readonly windowSeconds: number;
  /** Points counted in memory meanwhile, less their refunds: they are added to Redis on its return. */
  added: number;
  /** Refunds of points counted in Redis that could not reach it: taken off there on its return. */
  refunded: number;
  /** The count the counter's window opens with, when Redis no longer holds it (lost with a restart). */
  openingCount?: number;
  /** When the window counted in memory ends (Unix ms): an ended window carries nothing over. */
  readonly endsAt: number;
}

/** A long outage with many distinct counters (login attempts from everywhere) stays bounded. */
const MAX_ENTRIES = 100_000;

/**
 * What a replica counted on its own while Redis was away, to be carried into the shared counters
 * when Redis returns: without it the shared count lacked every request of the outage, and the
 * replicas together gave an account more than its quota once Redis was back.
 */
export class OutageJournal {
  private entries = new Map<string, JournalEntry>();
  private carriedOver = 0;

  /** Changes each time the entries are taken to Redis; an addition's refund compares it (see `takeBack`). */
  get generation(): number {
    return this.carriedOver;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Notes an addition made in memory while Redis was away. */
  noteAddition(addition: BoundedAddition, now: number): void {
    const entry = this.entry(addition.key, addition.windowSeconds, now);
    entry.added += addition.points;
    if (addition.openingCount !== undefined) entry.openingCount = addition.openingCount;
  }

  /** Notes a refund of points counted in Redis that could not be sent there. */
  noteRefund(key: string, points: number, windowSeconds: number, now: number): void {
    this.entry(key, windowSeconds, now).refunded += points;
  }

  /**
   * Takes back points noted since `generation`; false when they were carried to Redis meanwhile
   * (the refund then belongs there).
   */
  takeBack(key: string, points: number, windowSeconds: number, generation: number): boolean {
    if (generation !== this.carriedOver) return false;
    const entry = this.entries.get(entryId(key, windowSeconds));
    if (entry) entry.added = Math.max(0, entry.added - points);
    return true;
  }

  forget(key: string, windowSeconds: number): void {
    this.entries.delete(entryId(key, windowSeconds));
  }

  /** Hands over the entries whose windows are still open, and forgets them all. */
  takeAll(now: number): JournalEntry[] {
    const open = [...this.entries.values()].filter((entry) => entry.endsAt > now && (entry.added > 0 || entry.refunded > 0));
    this.entries = new Map();
    this.carriedOver += 1;
    return open;
  }

  /** Gives back entries that could not be carried over (Redis went away again), merged with any noted since. */
  putBack(entries: readonly JournalEntry[], now: number): void {
    for (const returned of entries) {
      const entry = this.entry(returned.key, returned.windowSeconds, now, returned.endsAt);
      entry.added += returned.added;
      entry.refunded += returned.refunded;
      if (returned.openingCount !== undefined) entry.openingCount ??= returned.openingCount;
    }
  }

  private entry(key: string, windowSeconds: number, now: number, endsAt = now + windowSeconds * 1000): JournalEntry {
    const id = entryId(key, windowSeconds);
    const known = this.entries.get(id);
    if (known && known.endsAt > now) return known;
    if (known) this.entries.delete(id);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    const entry: JournalEntry = { key, windowSeconds, added: 0, refunded: 0, endsAt };
    this.entries.set(id, entry);
    return entry;
  }
}

function entryId(key: string, windowSeconds: number): string {
  return `${windowSeconds}:${key}`;
}
