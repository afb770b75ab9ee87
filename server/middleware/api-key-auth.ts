import type { RequestHandler } from 'express';
import type { AccountService } from '../../core';
import { setPrincipal } from '../request-context';

/** Requires a live `X-API-Key`; the caller is then available through `principalOf(response)`. */
export function requireApiKey(accounts: AccountService): RequestHandler {
  return async function authenticateApiKey(request, response, next) {
    setPrincipal(response, await accounts.authenticate(request.get('X-API-Key')));
    next();
  };
}
