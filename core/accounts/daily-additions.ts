import type { FailedUsageRecord, UsageRecord } from './account-store';
import { utcDay } from './utc-day';

/** What a batch adds to one `usage_daily` row: one account, UTC day and model. */
export interface DailyAddition {
  readonly accountId: string;
  readonly day: string;
  readonly model: string;
  /** Syntheses answered, successful or not. */
  requests: number;
  characters: number;
  audioSeconds: number;
  cacheHits: number;
  errors: number;
}

/**
 * A batch's usage rows and failures summed per account, UTC day and model, so that a store makes
 * one upsert per daily row the batch touches rather than one per request: a second of load on
 * one model is one statement, not two thousand.
 */
export function dailyAdditions(usage: readonly UsageRecord[], failures: readonly FailedUsageRecord[]): DailyAddition[] {
  const rows = new Map<string, DailyAddition>();
  const rowOf = (accountId: string, createdAt: number, model: string): DailyAddition => {
    const day = utcDay(createdAt);
    const key = `${accountId}\u0000${day}\u0000${model}`;
    let row = rows.get(key);
    if (!row) {
      row = { accountId, day, model, requests: 0, characters: 0, audioSeconds: 0, cacheHits: 0, errors: 0 };
      rows.set(key, row);
    }
    row.requests += 1;
    return row;
  };
  for (const record of usage) {
    const row = rowOf(record.accountId, record.createdAt, record.model);
    row.characters += record.characters;
    row.audioSeconds += record.audioSeconds ?? 0;
    if (record.cacheHit) row.cacheHits += 1;
  }
  for (const failure of failures) {
    const row = rowOf(failure.accountId, failure.createdAt, failure.model);
    if (failure.error !== false) row.errors += 1;
  }
  return [...rows.values()];
}
