import type { RequestHandler } from 'express';
import type { PrometheusMetrics } from '../metrics/prometheus-metrics';
import { onResponseDone } from '../response-done';
import { routePatternOf } from '../route-pattern';
import { unfinishedAnswer } from '../unfinished-answer';

/** Counts every request by method, route pattern (`(unmatched)` otherwise) and status, with its latency. */
export function httpMetrics(metrics: PrometheusMetrics): RequestHandler {
  return function observeHttpRequest(request, response, next) {
    const started = process.hrtime.bigint();
    metrics.httpStarted();
    onResponseDone(response, (completed) => {
      metrics.httpFinished({
        method: request.method,
        route: routePatternOf(request) ?? '(unmatched)',
        status: completed ? response.statusCode : unfinishedAnswer(response).status,
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
      });
    });
    next();
  };
}
