import type { RequestHandler } from 'express';
import { gatewayError } from '../../core';

/** The fallback after every route: an unknown path or method answers a 404 envelope. */
export function notFound(): RequestHandler {
  return function routeNotFound(request) {
    // Within a mounted router (`/v1`) `path` lacks the mount point: `baseUrl` puts it back.
    throw gatewayError('TTS_ERR_NOT_FOUND', { what: `route for ${request.method} ${(request.baseUrl + request.path).slice(0, 200)}` });
  };
}
