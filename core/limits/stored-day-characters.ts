import { LRUCache } from 'lru-cache';

/** Characters of an account's usage rows made from `fromMs` to `toMs` (exclusive), per key id. */
export type StoredCharacters = (accountId: string, fromMs: number, toMs: number) => Promise<ReadonlyMap<string, number>>;

/** What an account used on one UTC day before the counters counted it: in all, and per key. */
export interface DayCharacters {
  readonly account: number;
  readonly byKey: ReadonlyMap<string, number>;
}

const DAY_MS = 86_400_000;

/** One read of an account's day, and the key counters it has opened in this process. */
interface DayRead {
  readonly day: DayCharacters;
  readonly keysOpened: ReadonlySet<string>;
}

/**
 * The characters the database holds for an account's UTC day: what a daily counter opens with.
 * Counters in memory start from zero at every start, and without them a restart gave every
 * account its whole daily quota again. Read once per account and day in this process, and again
 * the first time a key's counter needs it: a key first used here later that day (after a rolling
 * restart, say) must open from what the database holds then, not from the account's earlier
 * read, which misses that key's characters written since. Never more than once per counter and
 * day, since only the counter's opening uses it (an open window keeps its own count).
 */
export class StoredDayCharacters {
  private readonly read = new LRUCache<string, DayRead>({ max: 10_000, ttl: DAY_MS });

  constructor(private readonly stored: StoredCharacters) {}

  /** Reads every day again at its next use (the counters lost what they had counted since the first read). */
  forget(): void {
    this.read.clear();
  }

  /**
   * The day's stored characters, as of the account's first use here or, given `keyId`, that
   * key's; none when the store cannot say (a limit is no reason to fail a request).
   */
  async of(accountId: string, dayStartMs: number, keyId?: string): Promise<DayCharacters | undefined> {
    const id = `${accountId}\u0000${dayStartMs}`;
    const known = this.read.get(id);
    if (known && (keyId === undefined || known.keysOpened.has(keyId))) return known.day;
    try {
      const byKey = await this.stored(accountId, dayStartMs, dayStartMs + DAY_MS);
      let account = 0;
      for (const characters of byKey.values()) account += characters;
      const day = { account, byKey };
      const keysOpened = new Set(this.read.get(id)?.keysOpened);
      if (keyId !== undefined) keysOpened.add(keyId);
      this.read.set(id, { day, keysOpened });
      return day;
    } catch {
      return undefined;
    }
  }
}
