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

/** A suffix range of at least one byte (`-500`) somewhere in the header. */
const NON_ZERO_SUFFIX = /[=,]\s*-\s*0*[1-9]/;

/**
 * What range-parser calls unsatisfiable that RFC 9110 does not (14.1.2, 14.2): a unit other than
 * bytes is ignored, and a suffix longer than the file (`bytes=-5000` of 1000 bytes) is the whole file.
 */
function refusedRange(header: string, size: number): RangeDecision {
  if (header.slice(0, header.indexOf('=')) !== 'bytes') return { kind: 'whole' };
  if (size > 0 && NON_ZERO_SUFFIX.test(header)) return { kind: 'partial', range: { start: 0, end: size - 1 } };
  return { kind: 'unsatisfiable' };
}

/**
 * The Range header read as a static file server does: a malformed header or several ranges are
 * served whole (200), one satisfiable range as 206, a range past the end as 416.
 */
export function decideRange(request: Request, size: number, etag: string, lastModified: Date): RangeDecision {
  const header = request.get('Range');
  if (!header || !ifRangeHolds(request, etag, lastModified)) return { kind: 'whole' };
  const ranges = request.range(size, { combine: true });
  if (ranges === -1) return refusedRange(header, size);
  if (ranges === -2 || ranges === undefined || ranges.type !== 'bytes' || ranges.length !== 1) return { kind: 'whole' };
  return { kind: 'partial', range: { start: ranges[0].start, end: ranges[0].end } };
}
