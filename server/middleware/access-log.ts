import type { Request, RequestHandler } from 'express';
import type { Logger } from 'winston';
import { accessLogFieldsOf, requestIdOf } from '../request-context';
import { onResponseDone } from '../response-done';
import { routePatternOf } from '../route-pattern';
import { unfinishedAnswer } from '../unfinished-answer';
import { maskedPath } from './masked-path';

/**
 * The route pattern, not the URL: download names are capabilities and stay out of the logs.
 * Unmatched requests log their path (without the query string), masked: it is text the client typed.
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
