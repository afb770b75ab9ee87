import type Database from 'better-sqlite3';
import type { DailyUsageRecord } from './account-store';
import type { DailyAddition } from './daily-additions';

interface DailyUsageRow {
  day: string;
  model: string;
  requests: number;
  characters: number;
  audio_seconds: number;
  cache_hits: number;
  errors: number;
}

const ADD = `
  INSERT INTO usage_daily (account_id, day, model, requests, characters, audio_seconds, cache_hits, errors)
  SELECT @accountId, @day, @model, @requests, @characters, @audioSeconds, @cacheHits, @errors
  -- An account deleted since: left out, as its refusal would fail the whole batch at every retry.
  WHERE EXISTS (SELECT 1 FROM accounts WHERE id = @accountId)
  ON CONFLICT (account_id, day, model) DO UPDATE SET
    requests = requests + excluded.requests,
    characters = characters + excluded.characters,
    audio_seconds = audio_seconds + excluded.audio_seconds,
    cache_hits = cache_hits + excluded.cache_hits,
    errors = errors + excluded.errors`;

/** The `usage_daily` table: one row per account, UTC day and model, counters added in place. */
export class SqliteDailyUsage {
  /** Prepared once, at the first use (a store opened on an older schema has no table yet). */
  private prepared?: Database.Statement;

  constructor(private readonly database: Database.Database) {}

  private get add(): Database.Statement {
    return (this.prepared ??= this.database.prepare(ADD));
  }

  /** Adds each row's counts to its daily row (inside the caller's transaction). */
  addAll(additions: readonly DailyAddition[]): void {
    for (const addition of additions) this.add.run(addition);
  }

  list(accountId: string, fromDay: string, toDay: string): DailyUsageRecord[] {
    const rows = this.database
      .prepare('SELECT day, model, requests, characters, audio_seconds, cache_hits, errors FROM usage_daily WHERE account_id = ? AND day BETWEEN ? AND ? ORDER BY day, model')
      .all(accountId, fromDay, toDay) as DailyUsageRow[];
    return rows.map((row) => ({
      day: row.day,
      model: row.model,
      requests: row.requests,
      characters: row.characters,
      audioSeconds: row.audio_seconds,
      cacheHits: row.cache_hits,
      errors: row.errors,
    }));
  }
}
