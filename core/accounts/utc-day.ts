const DAY_MS = 86_400_000;

/** The day last asked for: nearly every call (one or two a request) falls on it. */
let lastDay = { start: 0, end: 0, text: '' };

/** `YYYY-MM-DD` of a Unix-millisecond time, in UTC: the day usage and daily quotas count in. */
export function utcDay(time: number): string {
  if (time >= lastDay.start && time < lastDay.end) return lastDay.text;
  const text = new Date(time).toISOString().slice(0, 10);
  // UTC days have no leap seconds in Unix time: each is a whole multiple of DAY_MS.
  const start = Math.floor(time / DAY_MS) * DAY_MS;
  if (Number.isFinite(start)) lastDay = { start, end: start + DAY_MS, text };
  return text;
}

/** Milliseconds from `time` to the next UTC midnight (when daily quotas reset). */
export function msUntilNextUtcDay(time: number): number {
  const next = new Date(time);
  next.setUTCHours(24, 0, 0, 0);
  return next.getTime() - time;
}
