import type { Response } from 'express';
import { extended, GatewayError, type AuthenticatedKey, type ErrorCode, type ResultLookup } from '../core';

/** Per-request values kept in `response.locals`, read and written only through these helpers. */

export function requestIdOf(response: Response): string {
  const requestId: unknown = response.locals.requestId;
  return typeof requestId === 'string' ? requestId : 'unknown';
}

export function setRequestId(response: Response, requestId: string): void {
  response.locals.requestId = requestId;
}

export function setPrincipal(response: Response, principal: AuthenticatedKey): void {
  response.locals.principal = principal;
}

/** The authenticated caller; a route that reads it without the auth middleware is a wiring bug. */
export function principalOf(response: Response): AuthenticatedKey {
  const principal = response.locals.principal as AuthenticatedKey | undefined;
  if (!principal) throw new GatewayError('TTS_ERR_INTERNAL', 'Internal error');
  return principal;
}

/** Facts a route adds to its access-log line (model, provider, text length); never the text. */
export type AccessLogFields = Readonly<Record<string, string | number>>;

export function addAccessLogFields(response: Response, fields: AccessLogFields): void {
  response.locals.accessLogFields = extended(accessLogFieldsOf(response), fields);
}

export function accessLogFieldsOf(response: Response): AccessLogFields {
  return (response.locals.accessLogFields as AccessLogFields | undefined) ?? {};
}

/** The code of a failure after the answer began (logMidStreamFailure records it): an SSE stream still ends cleanly then. */
export function streamErrorOf(response: Response): ErrorCode | undefined {
  return accessLogFieldsOf(response).streamError as ErrorCode | undefined;
}

/** The result cache's lookup, started while the request's limits were checked. */
export function setResultLookup(response: Response, lookup: ResultLookup): void {
  response.locals.resultLookup = lookup;
}

export function resultLookupOf(response: Response): ResultLookup | undefined {
  return response.locals.resultLookup as ResultLookup | undefined;
}

/** When the limits counted the request (Unix ms): its usage rows are dated by it, so that they fall on the UTC day its characters were charged to. */
export function setAdmittedAt(response: Response, admittedAt: number): void {
  response.locals.admittedAt = admittedAt;
}

/** undefined: no limits ran for this request (its rows are dated when written). */
export function admittedAtOf(response: Response): number | undefined {
  return response.locals.admittedAt as number | undefined;
}
