import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { gatewayError } from '../../core';

/** Whether the request announces a body larger than the limit (Content-Length). */
export function declaredBodyTooLarge(request: IncomingMessage, limitBytes: number): boolean {
  const declared = Number(request.headers['content-length']);
  return Number.isFinite(declared) && declared > limitBytes;
}

/**
 * Refuses a declared body over `server.bodyLimit` with 413 before any of it is read, on every
 * route, and closes the connection after the answer so the rest is never taken in.
 */
export function refuseOversizedBody(limitBytes: number): RequestHandler {
  return function refuseOversized(request, response, next) {
    if (!declaredBodyTooLarge(request, limitBytes)) {
      next();
      return;
    }
    response.setHeader('Connection', 'close');
    next(gatewayError('TTS_ERR_PAYLOAD_TOO_LARGE', { limitBytes }, { details: [{ field: 'Content-Length', reason: 'too large', limitBytes }] }));
  };
}
