import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { setRequestId } from '../request-context';

/** An incoming id is echoed only when it is short and plain, so it is safe in headers and logs. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Gives every request an id (the client's sane `X-Request-Id` or a UUID) and sets it on every answer. */
export function requestId(): RequestHandler {
  return function assignRequestId(request, response, next) {
    const incoming = request.get('X-Request-Id');
    const id = incoming !== undefined && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    setRequestId(response, id);
    response.setHeader('X-Request-Id', id);
    next();
  };
}
