import type pg from 'pg';
import type { AccountLimits, AccountLimitsUpdate, DailyUsageRecord, UsageRecord } from './account-store';
import type { DailyAddition } from './daily-additions';

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

/**
 * A whole batch in one statement: each column's values as one array parameter. Rows of an
 * account deleted since are left out: refused, they would fail the whole batch at every retry.
 */
const INSERT_USAGE = `
  INSERT INTO usage_records (account_id, key_id, model, characters, bytes, created_at)
  SELECT u.* FROM UNNEST($1::text[], $2::text[], $3::text[], $4::integer[], $5::bigint[], $6::bigint[])
    AS u (account_id, key_id, model, characters, bytes, created_at)
  WHERE EXISTS (SELECT 1 FROM accounts WHERE accounts.id = u.account_id)`;

/** Rows summed per account, day and model beforehand (`dailyAdditions`): no key twice in one statement; deleted accounts left out. */
const ADD_DAILY = `
  INSERT INTO usage_daily (account_id, day, model, requests, characters, audio_seconds, cache_hits, errors)
  SELECT u.* FROM UNNEST($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::double precision[], $7::bigint[], $8::bigint[])
    AS u (account_id, day, model, requests, characters, audio_seconds, cache_hits, errors)
  WHERE EXISTS (SELECT 1 FROM accounts WHERE accounts.id = u.account_id)
  ON CONFLICT (account_id, day, model) DO UPDATE SET
    requests = usage_daily.requests + EXCLUDED.requests,
    characters = usage_daily.characters + EXCLUDED.characters,
    audio_seconds = usage_daily.audio_seconds + EXCLUDED.audio_seconds,
    cache_hits = usage_daily.cache_hits + EXCLUDED.cache_hits,
    errors = usage_daily.errors + EXCLUDED.errors`;

/** The rows as UNNEST's parameters: one array per field, in the order of `fields`. */
function columns<Row>(rows: readonly Row[], fields: readonly (keyof Row)[]): unknown[][] {
  return fields.map((field) => rows.map((row) => row[field]));
}

/** Inserts a batch of usage rows in one round trip (inside the caller's transaction). */
export async function insertUsageRows(query: PostgresQuery, usage: readonly UsageRecord[]): Promise<void> {
  if (usage.length > 0) await query(INSERT_USAGE, columns(usage, ['accountId', 'keyId', 'model', 'characters', 'bytes', 'createdAt']));
}

/** Adds a batch's sums to their `usage_daily` rows in one round trip (inside the caller's transaction). */
export async function addDaily(query: PostgresQuery, additions: readonly DailyAddition[]): Promise<void> {
  if (additions.length === 0) return;
  await query(ADD_DAILY, columns(additions, ['accountId', 'day', 'model', 'requests', 'characters', 'audioSeconds', 'cacheHits', 'errors']));
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

export async function charactersByKey(query: PostgresQuery, accountId: string, fromMs: number, toMs: number): Promise<ReadonlyMap<string, number>> {
  // SUM of an integer column is a BIGINT: a number through the pool's parser.
  const { rows } = await query<{ key_id: string; characters: number }>(
    'SELECT key_id, SUM(characters) AS characters FROM usage_records WHERE account_id = $1 AND created_at >= $2 AND created_at < $3 GROUP BY key_id',
    [accountId, fromMs, toMs],
  );
  return new Map(rows.map((row) => [row.key_id, row.characters]));
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
