import type { Logger } from 'winston';
import type { PrometheusMetrics } from './metrics/prometheus-metrics';

/** An answer Node's connection layer gave to a request it could not read (431, malformed HTTP, headers too slow). */
export interface UnreadRefusal {
  readonly status: number;
  readonly code: string;
  readonly requestId: string;
}

/** Method and route of such a request: nothing of it was read, and its bytes are the client's text. */
const UNREAD = '(unread)';

/**
 * Logs and counts what Node refuses before the app sees a request: without this a client whose
 * headers are too large, or a flood of malformed requests, left no `request` line and no sample
 * at all. A request the app had begun (a body too slow) is logged and counted by the app already.
 */
export function recordUnreadRefusals(logger: Logger, metrics: PrometheusMetrics): (refusal: UnreadRefusal) => void {
  return ({ status, code, requestId }) => {
    logger.info('request', { requestId, method: UNREAD, route: UNREAD, status, code, latencyMs: 0 });
    metrics.httpUnread(status);
  };
}
