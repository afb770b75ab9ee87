import type { Request, Response } from 'express';
import { GatewayError, type AccountService } from '../../core';
import { sendSuccess } from '../envelope';
import { principalOf } from '../request-context';

/** One optional query value: a repeated or nested parameter is a client error. */
function queryText(request: Request, name: string): string | undefined {
  const value: unknown = request.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new GatewayError('TTS_ERR_VALIDATION', `${name} must be given once, as YYYY-MM-DD`, { details: [{ field: name, reason: 'type' }] });
  return value;
}

/** Handler of GET /api/v1/usage?from=YYYY-MM-DD&to=YYYY-MM-DD: the caller's account. */
export function createUsageRoutes(accounts: AccountService) {
  return {
    async usage(request: Request, response: Response): Promise<void> {
      const report = await accounts.usageReport(principalOf(response).account.id, { from: queryText(request, 'from'), to: queryText(request, 'to') });
      sendSuccess(response, 'Usage listed', report);
    },
  };
}
