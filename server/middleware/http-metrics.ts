import type { RequestHandler, Response } from 'express';
import { ERROR_CATALOGUE } from '../../core';
import type { PrometheusMetrics } from '../metrics/prometheus-metrics';
import { streamErrorOf } from '../request-context';
import { onResponseDone } from '../response-done';
import { routePatternOf } from '../route-pattern';

/** Status counted for a request whose client left before the answer was complete. */
const CLIENT_CLOSED = 499;

/**
 * The status of an answer that did not complete: the failure's own status when the gateway cut
 * it (a stream whose synthesis failed after it began), else the client left.
 */
function unfinishedStatus(response: Response): number {
  const failure = streamErrorOf(response);
  return failure === undefined || failure === 'TTS_ERR_CANCELLED' ? CLIENT_CLOSED : ERROR_CATALOGUE[failure].status;
}

/** Counts every request by method, route pattern (`(unmatched)` otherwise) and status, with its latency. */
export function httpMetrics(metrics: PrometheusMetrics): RequestHandler {
  return function observeHttpRequest(request, response, next) {
    const started = process.hrtime.bigint();
    metrics.httpStarted();
    onResponseDone(response, (completed) => {
      metrics.httpFinished({
        method: request.method,
        route: routePatternOf(request) ?? '(unmatched)',
        status: completed ? response.statusCode : unfinishedStatus(response),
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
      });
    });
    next();
  };
}
