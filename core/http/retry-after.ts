/**
 * A provider's Retry-After (RFC 9110 10.2.3): delay-seconds, or an HTTP-date in one of its three
 * forms. Anything else is no value at all (undefined), never "retry now": `Date.parse` reads
 * `-5` or `abc 12` as dates of 2001, which made a malformed header a Retry-After of 0.
 */

/** Digits, with a fraction some providers send (`1.5`): rounded up. */
const DELAY_SECONDS = /^\d+(?:\.\d+)?$/;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** `Sun, 06 Nov 1994 08:49:37 GMT` (IMF-fixdate). */
const IMF_FIXDATE = /^[a-z]{3}, (\d{2}) ([a-z]{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) gmt$/i;
/** `Sunday, 06-Nov-94 08:49:37 GMT` (obsolete RFC 850). */
const RFC_850_DATE = /^[a-z]{6,9}, (\d{2})-([a-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) gmt$/i;
/** `Sun Nov  6 08:49:37 1994` (obsolete asctime, in UTC though it does not say so). */
const ASCTIME_DATE = /^[a-z]{3} ([a-z]{3}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/i;

/** Parses Retry-After into whole seconds from `now` (0 for a date passed); undefined when it is not a valid value. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (DELAY_SECONDS.test(value)) return wholeSeconds(Number(value));
  const date = httpDate(value, now);
  return date === undefined ? undefined : wholeSeconds(Math.max(0, (date - now) / 1000));
}

/** Rounded up, and at most what a header can write as digits (a larger number prints as `1e+23`). */
function wholeSeconds(seconds: number): number {
  return Math.min(Number.MAX_SAFE_INTEGER, Math.ceil(seconds));
}

/** The time an HTTP-date names, in ms since the epoch (UTC in every form). */
function httpDate(value: string, now: number): number | undefined {
  let match = IMF_FIXDATE.exec(value);
  if (match) return utc(match[3], match[2], match[1], match[4], match[5], match[6]);
  match = RFC_850_DATE.exec(value);
  if (match) return utc(fullYear(Number(match[3]), now), match[2], match[1], match[4], match[5], match[6]);
  match = ASCTIME_DATE.exec(value);
  if (match) return utc(match[6], match[1], match[2], match[3], match[4], match[5]);
  return undefined;
}

function utc(year: string | number, monthName: string, day: string, hours: string, minutes: string, seconds: string): number | undefined {
  const month = MONTHS.indexOf(monthName.toLowerCase());
  if (month < 0) return undefined;
  const time = Date.UTC(Number(year), month, Number(day), Number(hours), Number(minutes), Number(seconds));
  return Number.isNaN(time) ? undefined : time;
}

/** RFC 9110: a two-digit year more than 50 years in the future is in the past century. */
function fullYear(twoDigits: number, now: number): number {
  const current = new Date(now).getUTCFullYear();
  const year = Math.floor(current / 100) * 100 + twoDigits;
  return year > current + 50 ? year - 100 : year;
}
