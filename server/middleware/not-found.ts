import type { RequestHandler } from 'express';
import { gatewayError } from '../../core';

/** The fallback after every route: an unknown path or method answers a 404 envelope. */
export function notFound(): RequestHandler {
  return function routeNotFound(request) {
    throw gatewayError('TTS_ERR_NOT_FOUND', { what: `route for ${request.method} ${request.path.slice(0, 200)}` });
  };
}
