import type { Request } from 'express';
import type { ByteRange } from '../../core';

/** What to send for a download: the whole file, one range, or a refusal of the range. */
export type RangeDecision = { readonly kind: 'whole' } | { readonly kind: 'partial'; readonly range: ByteRange } | { readonly kind: 'unsatisfiable' };

/**
 * If-Range: the Range applies only while the file is the one the client has, named by our
 * strong ETag or by its exact Last-Modified date.
 */
function ifRangeHolds(request: Request, etag: string, lastModified: Date): boolean {
  const condition = request.get('If-Range');
  if (!condition) return true;
  if (condition.includes('"')) return condition.trim() === etag;
  const date = Date.parse(condition);
  // RFC 9110 13.1.5: an exact match; a later date says nothing about which bytes the client has.
  return !Number.isNaN(date) && Math.floor(lastModified.getTime() / 1000) === Math.floor(date / 1000);
}

/** One suffix range (`-500`) of a Range header's list. */
const SUFFIX_RANGE = /^\s*-\s*(\d+)\s*$/;

/**
 * Whether a range of the header is a suffix longer than the file (`bytes=-5000` of 1000 bytes):
 * RFC 9110 14.1.2 makes it the whole file, and so the union of every list that holds one.
 * range-parser drops it as unsatisfiable instead, alone or beside other ranges.
 */
function holdsLongerSuffix(header: string, size: number): boolean {
  return header
    .slice(header.indexOf('=') + 1)
    .split(',')
    .some((spec) => {
      const suffix = SUFFIX_RANGE.exec(spec);
      return suffix !== null && Number(suffix[1]) > size;
    });
}

/**
 * The Range header read as a static file server does: a malformed header or several ranges are
 * served whole (200), one satisfiable range as 206 (overlapping ones merged into one, a list
 * with a suffix longer than the file as the whole file), a range past the end as 416.
 */
export function decideRange(request: Request, size: number, etag: string, lastModified: Date): RangeDecision {
  const header = request.get('Range');
  if (!header || !ifRangeHolds(request, etag, lastModified)) return { kind: 'whole' };
  const ranges = request.range(size, { combine: true });
  // A unit other than bytes is ignored (RFC 9110 14.2), as a malformed header is.
  if (ranges === -2 || ranges === undefined || header.slice(0, header.indexOf('=')) !== 'bytes') return { kind: 'whole' };
  if (size > 0 && holdsLongerSuffix(header, size)) return { kind: 'partial', range: { start: 0, end: size - 1 } };
  if (ranges === -1) return { kind: 'unsatisfiable' };
  if (ranges.length !== 1) return { kind: 'whole' };
  return { kind: 'partial', range: { start: ranges[0].start, end: ranges[0].end } };
}
