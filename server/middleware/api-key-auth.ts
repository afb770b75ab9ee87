import type { Request, RequestHandler } from 'express';
import type { AccountService } from '../../core';
import { setPrincipal } from '../request-context';

/**
 * The key a request presents: `X-API-Key`, else `Authorization: Bearer <key>` (OpenAI's SDKs).
 * An empty `X-API-Key` (a client's unset variable) presents nothing, so it cannot hide a Bearer key.
 */
export function presentedKey(request: Request): string | undefined {
  const header = request.get('X-API-Key');
  if (header) return header;
  const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(request.get('Authorization') ?? '');
  return match?.[1];
}

/** Requires a live API key; the caller is then available through `principalOf(response)`. */
export function requireApiKey(accounts: AccountService): RequestHandler {
  return async function authenticateApiKey(request, response, next) {
    setPrincipal(response, await accounts.authenticate(presentedKey(request)));
    next();
  };
}
