/**
 * Migration 13, for SQLite and PostgreSQL alike ({day}: the store's way to write a Unix
 * millisecond time as its UTC day, YYYY-MM-DD). Releases before migration 11 kept usage in
 * usage_records alone, and migration 11 made usage_daily empty: the report, which reads only
 * usage_daily, showed none of the usage from before the upgrade. This adds those rows' requests and
 * characters to their days (audio seconds, cache hits and errors were not recorded then). Rows
 * written since migration 11 (its applied_at) are in usage_daily already and are left out; when
 * 11 is applied in the same start, it is newer than every row.
 */
export const BACKFILL_DAILY_USAGE = `
  INSERT INTO usage_daily (account_id, day, model, requests, characters)
  SELECT account_id, {day}, model, COUNT(*), SUM(characters)
  FROM usage_records
  WHERE created_at < (SELECT applied_at FROM schema_migrations WHERE version = 11)
  GROUP BY account_id, {day}, model
  ON CONFLICT (account_id, day, model) DO UPDATE SET
    requests = usage_daily.requests + excluded.requests,
    characters = usage_daily.characters + excluded.characters;
`;
