import type { ErrorRequestHandler, Response } from 'express';
import type { Logger } from 'winston';
import { GatewayError } from '../../core';
import { errorEnvelope } from '../envelope';
import { sendJson } from '../send-json';
import { requestIdOf } from '../request-context';
import { toGatewayError } from './translate-error';
import { unexpectedErrorFields } from '../unexpected-error';

/** Headers that describe a file or a success; an error answer must not carry them. */
const SUCCESS_HEADERS = ['Content-Type', 'Content-Length', 'Content-Disposition', 'ETag', 'Last-Modified', 'Accept-Ranges', 'X-TTS-Applied', 'X-TTS-Served-By', 'X-TTS-Instructions'];

function clearSuccessHeaders(response: Response, keepContentRange: boolean): void {
  for (const header of SUCCESS_HEADERS) response.removeHeader(header);
  if (!keepContentRange) response.removeHeader('Content-Range');
}

/** How an API writes an error: its status, JSON body and any headers of its own. */
export type ErrorRendering = (error: GatewayError) => { readonly status: number; readonly body: unknown; readonly headers?: Readonly<Record<string, string>> };

/** The spec's envelope, at the catalogue's status. */
export const renderEnvelope: ErrorRendering = (error) => ({ status: error.status, body: errorEnvelope(error) });

/**
 * The one place that turns errors into answers: a GatewayError by its status into the API's
 * error shape (the spec's envelope by default); anything else into a generic 500 (logged with
 * the request id, never shown).
 */
export function errorHandler(logger: Logger, render: ErrorRendering = renderEnvelope): ErrorRequestHandler {
  return function handleError(error: unknown, request, response, next) {
    const requestId = requestIdOf(response);
    const known = toGatewayError(error);
    const gatewayError = known ?? new GatewayError('TTS_ERR_INTERNAL', 'Internal server error');
    if (!known) {
      logger.error('unexpected error', { requestId, ...unexpectedErrorFields(error) });
    } else if (gatewayError.status >= 500) {
      logger.warn('request failed', { requestId, code: gatewayError.code, errorMessage: gatewayError.message, details: gatewayError.details, ...gatewayError.logContext });
    } else {
      logger.debug('request refused', { requestId, code: gatewayError.code, status: gatewayError.status, ...gatewayError.logContext });
    }
    if (response.headersSent) {
      // Part of an answer is out: the only honest signal left is to cut the connection.
      request.socket.destroy();
      return;
    }
    clearSuccessHeaders(response, gatewayError.code === 'TTS_ERR_RANGE_NOT_SATISFIABLE');
    response.setHeader('Cache-Control', 'no-store');
    // Every 429 and 503 says when to come back: its own time, else 1 s (README, Headers).
    const retryAfterSeconds = gatewayError.retryAfterSeconds ?? (gatewayError.status === 429 || gatewayError.status === 503 ? 1 : undefined);
    if (retryAfterSeconds !== undefined) {
      response.setHeader('Retry-After', String(Math.max(0, Math.ceil(retryAfterSeconds))));
    }
    const rendered = render(gatewayError);
    for (const [name, value] of Object.entries(rendered.headers ?? {})) response.setHeader(name, value);
    sendJson(response, rendered.status, rendered.body);
  };
}
