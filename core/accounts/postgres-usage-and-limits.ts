import type pg from 'pg';
import type { AccountLimits, AccountLimitsUpdate, DailyUsageRecord, FailedUsageRecord, UsageRecord } from './account-store';
import { utcDay } from './utc-day';

/** Runs one statement (on the pool, or on a transaction's client). */
export type PostgresQuery = <Row extends pg.QueryResultRow>(text: string, values: unknown[]) => Promise<pg.QueryResult<Row>>;

interface DailyUsageRow {
  day: string;
  model: string;
  requests: number;
  characters: number;
  audio_seconds: number;
  cache_hits: number;
  errors: number;
}

interface LimitsRow {
  requests_per_minute: number | null;
  characters_per_day: number | null;
}

const ADD_DAILY = `
  INSERT INTO usage_daily (account_id, day, model, requests, characters, audio_seconds, cache_hits, errors)
  VALUES ($1, $2, $3, 1, $4, $5, $6, $7)
  ON CONFLICT (account_id, day, model) DO UPDATE SET
    requests = usage_daily.requests + 1,
    characters = usage_daily.characters + EXCLUDED.characters,
    audio_seconds = usage_daily.audio_seconds + EXCLUDED.audio_seconds,
    cache_hits = usage_daily.cache_hits + EXCLUDED.cache_hits,
    errors = usage_daily.errors + EXCLUDED.errors`;

/** Adds one synthesis to the `usage_daily` row of its account, UTC day and model. */
export async function addDailySuccess(query: PostgresQuery, usage: UsageRecord): Promise<void> {
  await query(ADD_DAILY, [usage.accountId, utcDay(usage.createdAt), usage.model, usage.characters, usage.audioSeconds ?? 0, usage.cacheHit ? 1 : 0, 0]);
}

export async function addDailyFailure(query: PostgresQuery, failure: FailedUsageRecord): Promise<void> {
  await query(ADD_DAILY, [failure.accountId, utcDay(failure.createdAt), failure.model, 0, 0, 0, 1]);
}

export async function listDailyUsage(query: PostgresQuery, accountId: string, fromDay: string, toDay: string): Promise<DailyUsageRecord[]> {
  const { rows } = await query<DailyUsageRow>(
    'SELECT day, model, requests, characters, audio_seconds, cache_hits, errors FROM usage_daily WHERE account_id = $1 AND day BETWEEN $2 AND $3 ORDER BY day, model',
    [accountId, fromDay, toDay],
  );
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

export async function getAccountLimits(query: PostgresQuery, accountId: string): Promise<AccountLimits> {
  const { rows } = await query<LimitsRow>('SELECT requests_per_minute, characters_per_day FROM accounts WHERE id = $1', [accountId]);
  const row = rows[0];
  return {
    ...(row?.requests_per_minute != null && { requestsPerMinute: row.requests_per_minute }),
    ...(row?.characters_per_day != null && { charactersPerDay: row.characters_per_day }),
  };
}

/** A number sets, null clears, absent keeps; false when there is no such account. */
export async function setAccountLimits(query: PostgresQuery, accountId: string, limits: AccountLimitsUpdate): Promise<boolean> {
  const result = await query(
    `UPDATE accounts SET
       requests_per_minute = CASE WHEN $2::boolean THEN $3::integer ELSE requests_per_minute END,
       characters_per_day = CASE WHEN $4::boolean THEN $5::integer ELSE characters_per_day END
     WHERE id = $1`,
    [accountId, limits.requestsPerMinute !== undefined, limits.requestsPerMinute ?? null, limits.charactersPerDay !== undefined, limits.charactersPerDay ?? null],
  );
  return result.rowCount === 1;
}
