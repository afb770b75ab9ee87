import type { Request, Response } from 'express';
import { isGatewayError, isKeyCapReached, type AccountService, type CredentialAction, type IssuedApiKey, type LoginThrottle, type PublicAccount } from '../../core';
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
  expiresAt: apiKey.expiresAt,
});

/** The client's address as Express sees it (behind a proxy only with `server.trustProxy`). */
const clientAddress = (request: Request): string => request.ip ?? request.socket.remoteAddress ?? 'unknown';

/** Handlers of /api/v1/auth: registration, login and the caller's own keys. */
export function createAuthRoutes(accounts: AccountService, throttle: LoginThrottle) {
  /**
   * Runs a password action under the throttle: refused early when blocked, counted as a failure unless it succeeds or the fault is the server's; a registration counts against its address only when it made an account.
   * A login refused at the account's key cap gave the right password: not counted either, so that it never ends in a 429.
   */
  async function throttled<T>(action: CredentialAction, request: Request, work: (credentials: Credentials) => Promise<T>): Promise<T> {
    const credentials = request.body as Credentials;
    const attempt = await throttle.attempt(action, credentials.email, clientAddress(request));
    try {
      const result = await work(credentials);
      await attempt.succeeded();
      return result;
    } catch (error) {
      if (isGatewayError(error) && error.status >= 400 && error.status < 500 && !isKeyCapReached(error)) await attempt.failed();
      else await attempt.withdraw();
      throw error;
    }
  }

  return {
    async register(request: Request, response: Response): Promise<void> {
      // A closed registration is refused before the throttle counts it: repeated 403s stay 403s.
      accounts.checkRegistrationOpen();
      const { account, apiKey } = await throttled('register', request, ({ email, password }) => accounts.register(email, password));
      sendSuccess(response, 'Account registered; keep the API key, it is shown only once', keyPayload(account, apiKey));
    },

    async login(request: Request, response: Response): Promise<void> {
      const { account, apiKey } = await throttled('login', request, ({ email, password }) => accounts.login(email, password));
      sendSuccess(response, 'Logged in; a new API key was issued', keyPayload(account, apiKey));
    },

    async listKeys(request: Request, response: Response): Promise<void> {
      sendSuccess(response, 'API keys listed', await accounts.listKeys(principalOf(response).account.id));
    },

    async createKey(request: Request, response: Response): Promise<void> {
      const { name, expiresIn } = request.body as { name: string; expiresIn?: number };
      const issued = await accounts.createKey(principalOf(response).account.id, name, expiresIn);
      sendSuccess(response, 'API key created; it is shown only once', issued);
    },

    async revokeKey(request: Request<{ id: string }>, response: Response): Promise<void> {
      await accounts.revokeKey(principalOf(response).account.id, request.params.id);
      sendSuccess(response, 'API key revoked', { id: request.params.id, revoked: true });
    },
  };
}
