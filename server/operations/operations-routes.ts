import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Logger } from 'winston';
import { GatewayError, redactSecrets } from '../../core';
import type { PrometheusMetrics } from '../metrics/prometheus-metrics';
import { checkReadiness, joinPendingChecks, READINESS_RETRY_AFTER_SECONDS, type ReadinessProbes } from './readiness';

export interface OperationsRoutesOptions {
  readonly readiness: ReadinessProbes;
  readonly metrics: PrometheusMetrics;
  /** `metrics.token`: when set, GET /metrics needs `Authorization: Bearer <token>`. */
  readonly metricsToken?: string;
  readonly logger: Logger;
}

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** Compares hashes, so neither the length nor the content of the token leaks through timing. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? '');
  return match !== null && timingSafeEqual(digest(match[1]), digest(token));
}

/** Handlers of the operator's endpoints: liveness, readiness and Prometheus metrics. */
export function createOperationsRoutes(options: OperationsRoutesOptions) {
  const { metrics, metricsToken, logger } = options;
  const readiness = joinPendingChecks(options.readiness);
  return {
    liveness(request: Request, response: Response): void {
      response.setHeader('Cache-Control', 'no-store');
      response.status(200).json({ status: 'ok' });
    },

    async readiness(request: Request, response: Response): Promise<void> {
      const report = await checkReadiness(readiness, (check, error, cause) => {
        // A library's message may quote what it was given (a URL with its key): scrubbed as any logged error.
        logger.warn('readiness check failed', { check, error, errorMessage: redactSecrets(cause instanceof Error ? cause.message : String(cause)) });
      });
      response.setHeader('Cache-Control', 'no-store');
      if (report.status !== 'ready') response.setHeader('Retry-After', String(READINESS_RETRY_AFTER_SECONDS));
      response.status(report.status === 'ready' ? 200 : 503).json(report);
    },

    async metrics(request: Request, response: Response): Promise<void> {
      if (metricsToken !== undefined && !bearerMatches(request.get('Authorization'), metricsToken)) {
        response.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
        throw new GatewayError('TTS_ERR_UNAUTHORIZED', 'GET /metrics needs Authorization: Bearer <metrics.token>');
      }
      const { contentType, body } = await metrics.exposition();
      response.setHeader('Cache-Control', 'no-store');
      response.status(200).type(contentType).send(body);
    },
  };
}
