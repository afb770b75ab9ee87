import type { Logger } from 'winston';
import { isGatewayError, type AccountService, type UsageInput } from '../core';

/**
 * Failures the usage counts as errors: the gateway's or the provider's (5xx, an upstream rate
 * limit). The client's own mistakes (unknown model, bad format) and cancellations are not.
 */
export function countsAsUsageError(error: unknown): boolean {
  return !isGatewayError(error) || error.status >= 500 || error.code === 'TTS_ERR_RATE_LIMITED';
}

/** Records what a synthesis route served or failed; losing a usage row never fails a request. */
export function usageRecorder(accounts: AccountService, logger: Logger) {
  const notRecorded = (requestId: string) => (error: unknown) => {
    logger.warn('usage not recorded', { requestId, errorMessage: error instanceof Error ? error.message : String(error) });
  };
  return {
    async served(accountId: string, keyId: string, usage: UsageInput, requestId: string): Promise<void> {
      await accounts.recordUsage(accountId, keyId, usage).catch(notRecorded(requestId));
    },
    async failed(accountId: string, model: string, error: unknown, requestId: string): Promise<void> {
      if (countsAsUsageError(error)) await accounts.recordFailedUsage(accountId, model).catch(notRecorded(requestId));
    },
  };
}
