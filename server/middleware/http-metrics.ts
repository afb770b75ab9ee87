import type { RequestHandler } from 'express';
import type { PrometheusMetrics } from '../metrics/prometheus-metrics';
import { onResponseDone } from '../response-done';
import { routePatternOf } from '../route-pattern';

/** Status counted for a request whose client left before the answer was complete. */
const CLIENT_CLOSED = 499;

/** Counts every request by method, route pattern (`(unmatched)` otherwise) and status, with its latency. */
export function httpMetrics(metrics: PrometheusMetrics): RequestHandler {
  return function observeHttpRequest(request, response, next) {
    const started = process.hrtime.bigint();
    metrics.httpStarted();
    onResponseDone(response, (completed) => {
      metrics.httpFinished({
        method: request.method,
        route: routePatternOf(request) ?? '(unmatched)',
        status: completed ? response.statusCode : CLIENT_CLOSED,
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
      });
    });
    next();
  };
}
