import type { Request, RequestHandler } from 'express';
import type { Logger } from 'winston';
import { accessLogFieldsOf, requestIdOf } from '../request-context';
import { onResponseDone } from '../response-done';
import { routePatternOf } from '../route-pattern';

const MAX_LOGGED_PATH = 200;

/** The route pattern; unmatched requests log their path (without the query string). */
function routeOf(request: Request): string {
  return routePatternOf(request) ?? `(unmatched) ${request.path.slice(0, MAX_LOGGED_PATH)}`;
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
        ...(completed ? {} : { aborted: true }),
      });
    });
    next();
  };
}
