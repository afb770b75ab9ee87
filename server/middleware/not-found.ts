import type { RequestHandler } from 'express';
import { GatewayError } from '../../core';

/** The fallback after every route: an unknown path or method answers a 404 envelope. */
export function notFound(): RequestHandler {
  return function routeNotFound(request) {
    throw new GatewayError('TTS_ERR_NOT_FOUND', `No route for ${request.method} ${request.path.slice(0, 200)}`);
  };
}
