import type { Request, RequestHandler } from 'express';
import type { Logger } from 'winston';
import { accessLogFieldsOf, requestIdOf } from '../request-context';
import { onResponseDone } from '../response-done';
import { routePatternOf } from '../route-pattern';
import { unfinishedAnswer } from '../unfinished-answer';

const MAX_LOGGED_PATH = 200;
const DOWNLOAD_PREFIX = '/api/v1/audio/download/';
/** A run as long as a download name's secret part (32 base64url characters), anywhere in a path. */
const SECRET_LIKE = /[A-Za-z0-9_-]{32,}/g;

/**
 * An unmatched path with anything that may be a download name masked: everything after the
 * download prefix, and any run as long as a name's secret part.
 */
export function maskedPath(path: string): string {
  const masked = path.startsWith(DOWNLOAD_PREFIX) ? `${DOWNLOAD_PREFIX}<file>` : path.replace(SECRET_LIKE, '<masked>');
  return masked.slice(0, MAX_LOGGED_PATH);
}

/**
 * The route pattern, not the URL: download names are capabilities and stay out of the logs.
 * Unmatched requests log their path (without the query string), masked.
 */
function routeOf(request: Request): string {
  return routePatternOf(request) ?? `(unmatched) ${maskedPath(pathAsSent(request))}`;
}

/**
 * The path as the client sent it: within a mounted router (/v1), `path` has lost the mount's
 * prefix, which `baseUrl` holds. (Not `originalUrl`: an absolute-form request line carries a host
 * and maybe credentials.)
 */
function pathAsSent(request: Request): string {
  return `${request.baseUrl}${request.path}`;
}

/** One line per request: id, method, route, status, latency and the route's own facts. Never headers or bodies. */
export function accessLog(logger: Logger): RequestHandler {
  return function logAccess(request, response, next) {
    const started = process.hrtime.bigint();
    onResponseDone(response, (completed) => {
      const latencyMs = Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10;
      logger.info('request', {
        requestId: requestIdOf(response),
        method: request.method,
        route: routeOf(request),
        status: response.statusCode,
        latencyMs,
        ...accessLogFieldsOf(response),
        // `aborted`: the client left. A stream the gateway cut says why in `streamError` instead.
        ...(completed || !unfinishedAnswer(response).clientLeft ? {} : { aborted: true }),
      });
    });
    next();
  };
}
