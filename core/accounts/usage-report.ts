import { GatewayError } from '../errors';
import type { AccountStore, DailyUsageRecord } from './account-store';
import { utcDay } from './utc-day';
import { compareText } from '../objects/compare-text';

/** Counters of usage, summed over whatever a report groups by. */
export interface UsageTotals {
  readonly requests: number;
  readonly characters: number;
  readonly audioSeconds: number;
  readonly cacheHits: number;
  readonly errors: number;
}

/** An account's usage over a range of UTC days: totals, per model and per day. */
export interface UsageReport {
  /** `YYYY-MM-DD`, inclusive. */
  readonly from: string;
  readonly to: string;
  readonly totals: UsageTotals;
  /** Models used in the range, by name. */
  readonly byModel: readonly (UsageTotals & { readonly model: string })[];
  /** Days with any usage, oldest first. */
  readonly byDay: readonly (UsageTotals & { readonly date: string })[];
}

export interface UsageRange {
  readonly from?: string;
  readonly to?: string;
}

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;
/** Days a report covers when `from` is not given (the last 30 days, today included). */
const DEFAULT_DAYS = 30;
const MAX_DAYS = 366;

const ZERO: UsageTotals = { requests: 0, characters: 0, audioSeconds: 0, cacheHits: 0, errors: 0 };

function parseDay(text: string, field: string): number {
  const time = DAY_PATTERN.test(text) ? Date.parse(`${text}T00:00:00Z`) : Number.NaN;
  // Date.parse accepts 2025-02-30 as March 2nd: a real day prints back as itself.
  if (Number.isNaN(time) || utcDay(time) !== text) {
    throw new GatewayError('TTS_ERR_VALIDATION', `${field} must be a date written YYYY-MM-DD`, { details: [{ field, reason: 'format' }] });
  }
  return time;
}

/** The inclusive day range a query asks for, checked: defaults to the last 30 days. */
export function usageDays(range: UsageRange, now: number): { from: string; to: string } {
  const toTime = range.to === undefined ? parseDay(utcDay(now), 'to') : parseDay(range.to, 'to');
  const fromTime = range.from === undefined ? toTime - (DEFAULT_DAYS - 1) * DAY_MS : parseDay(range.from, 'from');
  if (fromTime > toTime) throw new GatewayError('TTS_ERR_VALIDATION', 'from must not be after to', { details: [{ field: 'from', reason: 'after_to' }] });
  if ((toTime - fromTime) / DAY_MS + 1 > MAX_DAYS) {
    throw new GatewayError('TTS_ERR_VALIDATION', `a usage report covers at most ${MAX_DAYS} days`, { details: [{ field: 'from', reason: 'range' }] });
  }
  return { from: utcDay(fromTime), to: utcDay(toTime) };
}

function add(left: UsageTotals, right: UsageTotals): UsageTotals {
  return {
    requests: left.requests + right.requests,
    characters: left.characters + right.characters,
    audioSeconds: left.audioSeconds + right.audioSeconds,
    cacheHits: left.cacheHits + right.cacheHits,
    errors: left.errors + right.errors,
  };
}

/** Audio seconds to the millisecond: sums of floats otherwise print as 12.300000000000001. */
function rounded(totals: UsageTotals): UsageTotals {
  return { ...totals, audioSeconds: Math.round(totals.audioSeconds * 1000) / 1000 };
}

function totalsOf(record: DailyUsageRecord): UsageTotals {
  const { requests, characters, audioSeconds, cacheHits, errors } = record;
  return { requests, characters, audioSeconds, cacheHits, errors };
}

function groupBy(records: readonly DailyUsageRecord[], key: (record: DailyUsageRecord) => string): [string, UsageTotals][] {
  const groups = new Map<string, UsageTotals>();
  for (const record of records) groups.set(key(record), add(groups.get(key(record)) ?? ZERO, totalsOf(record)));
  return [...groups.entries()].sort(([left], [right]) => compareText(left, right)).map(([name, totals]) => [name, rounded(totals)]);
}

/** Builds the report of one account from the store's daily rows. */
export async function buildUsageReport(store: AccountStore, accountId: string, range: UsageRange, now: number): Promise<UsageReport> {
  const { from, to } = usageDays(range, now);
  const records = await store.listDailyUsage(accountId, from, to);
  return {
    from,
    to,
    totals: rounded(records.reduce((sum, record) => add(sum, totalsOf(record)), ZERO)),
    byModel: groupBy(records, (record) => record.model).map(([model, totals]) => ({ model, ...totals })),
    byDay: groupBy(records, (record) => record.day).map(([date, totals]) => ({ date, ...totals })),
  };
}
