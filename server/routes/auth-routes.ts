import type { Request, Response } from 'express';
import type { AccountService, IssuedApiKey, PublicAccount } from '../../core';
import { sendSuccess } from '../envelope';
import { principalOf } from '../request-context';

interface Credentials {
  readonly email: string;
  readonly password: string;
}

const keyPayload = (account: PublicAccount, apiKey: IssuedApiKey) => ({
  account: { id: account.id, email: account.email },
  apiKey: apiKey.apiKey,
  keyId: apiKey.id,
});

/** Handlers of /api/v1/auth: registration, login and the caller's own keys. */
export function createAuthRoutes(accounts: AccountService) {
  return {
    async register(request: Request, response: Response): Promise<void> {
      const { email, password } = request.body as Credentials;
      const { account, apiKey } = await accounts.register(email, password);
      sendSuccess(response, 'Account registered; keep the API key, it is shown only once', keyPayload(account, apiKey));
    },

    async login(request: Request, response: Response): Promise<void> {
      const { email, password } = request.body as Credentials;
      const { account, apiKey } = await accounts.login(email, password);
      sendSuccess(response, 'Logged in; a new API key was issued', keyPayload(account, apiKey));
    },

    async listKeys(request: Request, response: Response): Promise<void> {
      sendSuccess(response, 'API keys listed', await accounts.listKeys(principalOf(response).account.id));
    },

    async createKey(request: Request, response: Response): Promise<void> {
      const { name } = request.body as { name: string };
      const issued = await accounts.createKey(principalOf(response).account.id, name);
      sendSuccess(response, 'API key created; it is shown only once', issued);
    },

    async revokeKey(request: Request<{ id: string }>, response: Response): Promise<void> {
      await accounts.revokeKey(principalOf(response).account.id, request.params.id);
      sendSuccess(response, 'API key revoked', { id: request.params.id, revoked: true });
    },
  };
}
