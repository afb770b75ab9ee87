/** `YYYY-MM-DD` of a Unix-millisecond time, in UTC: the day usage and daily quotas count in. */
export function utcDay(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** Milliseconds from `time` to the next UTC midnight (when daily quotas reset). */
export function msUntilNextUtcDay(time: number): number {
  const next = new Date(time);
  next.setUTCHours(24, 0, 0, 0);
  return next.getTime() - time;
}
