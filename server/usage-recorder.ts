import type { Logger } from 'winston';
import { isGatewayError, type AccountService, type UsageInput } from '../core';

/**
 * Failures the usage counts as errors: the gateway's or the provider's (5xx, an upstream rate
 * limit). The client's own mistakes (unknown model, bad format) and cancellations are not.
 */
export function countsAsUsageError(error: unknown): boolean {
  return !isGatewayError(error) || error.status >= 500 || error.code === 'TTS_ERR_RATE_LIMITED';
}

/**
 * Records what a synthesis route served or failed; losing a usage row never fails a request.
 * `served` only queues the row: the batch is written up to a second later, and a route that
 * waited for it would keep its whole request (streams, signals, closures) alive that long, so
 * that under load a quarter of what requests allocate outlived the young generation.
 */
export function usageRecorder(accounts: AccountService, logger: Logger) {
  const notRecorded = (requestId: string) => (error: unknown) => {
    logger.warn('usage not recorded', { requestId, errorMessage: error instanceof Error ? error.message : String(error) });
  };
  return {
    served(accountId: string, keyId: string, usage: UsageInput): void {
      // Nothing to catch: the batch's failures go to the account service's onActivityError, and the row is kept for the next try.
      void accounts.recordUsage(accountId, keyId, usage);
    },
    async failed(accountId: string, model: string, error: unknown, requestId: string): Promise<void> {
      if (countsAsUsageError(error)) await accounts.recordFailedUsage(accountId, model).catch(notRecorded(requestId));
    },
  };
}
