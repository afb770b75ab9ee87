import type { Request } from 'express';
import { gatewayError, type GatewayError } from '../../core';

/** An entity tag of a list (`"abc"`, `W/"abc"`); its value may hold commas, so the list is not split on them. */
const ENTITY_TAG = /(W\/)?"[^"]*"/g;

/**
 * If-Match (RFC 9110 13.1.1): `*` matches any existing file; otherwise one of the listed tags
 * must equal our strong ETag by strong comparison (a weak tag never matches).
 */
function ifMatchHolds(condition: string, etag: string): boolean {
  if (condition.trim() === '*') return true;
  return [...condition.matchAll(ENTITY_TAG)].some(([tag, weak]) => weak === undefined && tag === etag);
}

/**
 * If-Unmodified-Since (RFC 9110 13.1.4): holds unless the file changed after the date, compared
 * in whole seconds as Last-Modified shows it. A value that is no date is ignored, as the RFC says.
 */
function ifUnmodifiedSinceHolds(condition: string, lastModified: Date): boolean {
  const date = Date.parse(condition);
  return Number.isNaN(date) || Math.floor(lastModified.getTime() / 1000) <= Math.floor(date / 1000);
}

const preconditionFailed = (header: string, reason: string): GatewayError =>
  gatewayError('TTS_ERR_PRECONDITION_FAILED', { header }, { details: [{ field: header, reason }] });

/**
 * The download's state-checking preconditions, evaluated before If-None-Match / If-Modified-Since
 * (304) and If-Range, in RFC 9110 13.2.2's order: a client that names the bytes it expects (to
 * resume, or to be sure a link still serves the file it saw) gets 412 instead of other bytes.
 * Throws 412; an unknown file is 404 before this is asked (13.2.1: preconditions then do not apply).
 */
export function checkDownloadPreconditions(request: Request, etag: string, lastModified: Date): void {
  const ifMatch = request.get('If-Match');
  if (ifMatch !== undefined) {
    if (!ifMatchHolds(ifMatch, etag)) throw preconditionFailed('If-Match', 'etag_mismatch');
    return;
  }
  // Only without If-Match (13.2.2 step 2).
  const ifUnmodifiedSince = request.get('If-Unmodified-Since');
  if (ifUnmodifiedSince !== undefined && !ifUnmodifiedSinceHolds(ifUnmodifiedSince, lastModified)) {
    throw preconditionFailed('If-Unmodified-Since', 'modified_since');
  }
}
