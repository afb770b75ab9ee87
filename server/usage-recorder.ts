import type { Response } from 'express';
import { ERROR_CATALOGUE, isGatewayError, type AccountService, type ErrorCode, type UsageInput } from '../core';
import { clientLeftAfterAnswerBegan } from './client-left-after-answer-began';
import { admittedAtOf, principalOf, streamErrorOf } from './request-context';

/**
 * Failures the usage counts as errors: the gateway's or the provider's (5xx, an upstream rate
 * limit). The client's own mistakes (unknown model, bad format) and cancellations are not.
 */
export function countsAsUsageError(error: unknown): boolean {
  return !isGatewayError(error) || codeCountsAsUsageError(error.code);
}

/** The same rule for a coded failure (its status is its code's). */
function codeCountsAsUsageError(code: ErrorCode): boolean {
  return ERROR_CATALOGUE[code].status >= 500 || code === 'TTS_ERR_RATE_LIMITED';
}

/**
 * The model name a refused request for a model the gateway does not serve is counted under: the
 * name as sent is the client's own text, and each new one would add a row to the database.
 */
export const UNKNOWN_MODEL = '(unknown model)';

/** The model a failure is counted under: the served one, or UNKNOWN_MODEL when there was none. */
function modelOfFailure(model: string, error: unknown): string {
  return isGatewayError(error) && error.code === 'TTS_ERR_MODEL_NOT_FOUND' ? UNKNOWN_MODEL : model;
}

/**
 * Records what a synthesis route served or failed, for the caller of `response`; losing a usage
 * row never fails a request. Rows are dated when the limits admitted the request, so that a
 * stream that crosses midnight (UTC) counts on the day its characters were charged to.
 * Both only queue the row: the batch is written up to a second later, and a route that
 * waited for it would keep its whole request (streams, signals, closures) alive that long, so
 * that under load a quarter of what requests allocate outlived the young generation.
 */
export function usageRecorder(accounts: AccountService) {
  // Nothing to catch: a batch's failed write goes to the account service's onActivityError, and its rows are kept for the next try.
  const served = (response: Response, usage: UsageInput): void => {
    const { account, keyId } = principalOf(response);
    void accounts.recordUsage(account.id, keyId, usage, admittedAtOf(response));
  };
  return {
    served,
    /**
     * Queues the failure as `served` queues its row: the error answer does not wait for a write.
     * Every failure is a request (it passed the limits); only the gateway's or provider's is an error.
     */
    failed(response: Response, model: string, error: unknown): void {
      void accounts.recordFailedUsage(principalOf(response).account.id, modelOfFailure(model, error), countsAsUsageError(error), admittedAtOf(response));
    },
    /**
     * An answer that did not complete (a stream cut, or a client gone before its tts-sync answer). A client that left once the audio flowed keeps its
     * characters charged (the limits keep them), so its row records them and what was made so
     * far; otherwise it counts as `failed` would count it (a client that left before any audio is
     * a request, not an error).
     */
    unfinished(response: Response, usage: UsageInput): void {
      if (clientLeftAfterAnswerBegan(response)) return served(response, usage);
      const code: ErrorCode | undefined = streamErrorOf(response);
      void accounts.recordFailedUsage(principalOf(response).account.id, usage.model, code !== undefined && codeCountsAsUsageError(code), admittedAtOf(response));
    },
  };
}
