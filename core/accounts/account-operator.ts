import { GatewayError, gatewayError } from '../errors';
import type { AccountLimits, AccountLimitsUpdate, AccountStore } from './account-store';
import type { AccountService, IssuedApiKey, PublicAccount } from './account-service';
import type { UsageRange, UsageReport } from './usage-report';

/** The largest limit accepted: anything above is a typo, not a policy. */
const MAX_LIMIT = 1_000_000_000;

function checkLimit(value: number | null | undefined, field: string): void {
  if (value === null || value === undefined) return;
  if (!Number.isInteger(value) || value < 1 || value > MAX_LIMIT) {
    throw new GatewayError('TTS_ERR_VALIDATION', `${field} must be a whole number from 1 to ${MAX_LIMIT}`, { details: [{ field, reason: 'range' }] });
  }
}

/**
 * What the operator does on the database (the CLI), beside what clients do through the API:
 * create accounts, set an account's own limits, read its usage. Business rules on accounts and
 * keys stay in AccountService.
 */
export class AccountOperator {
  constructor(
    private readonly accounts: AccountService,
    private readonly store: AccountStore,
  ) {}

  /** A new account with its first key (named `default`); 409 when the email is taken. */
  async createAccount(email: string, password?: string): Promise<{ account: PublicAccount; apiKey: IssuedApiKey }> {
    const exists = await this.accounts.findAccount(email).then(
      () => true,
      (error: unknown) => (error instanceof GatewayError && error.code === 'TTS_ERR_NOT_FOUND' ? false : Promise.reject(error)),
    );
    if (exists) throw new GatewayError('TTS_ERR_CONFLICT', 'An account with this email already exists', { details: [{ field: 'email', reason: 'taken' }] });
    const { account, apiKey } = await this.accounts.provisionKey(email, 'default', password);
    return { account, apiKey };
  }

  /** The account's own limits (absent: the configured default). */
  async limitsOf(email: string): Promise<{ account: PublicAccount; limits: AccountLimits }> {
    const account = await this.accounts.findAccount(email);
    return { account, limits: await this.store.getAccountLimits(account.id) };
  }

  /** Changes the limits named in `update` (null: back to the default), keeps the others; returns the limits now in force. */
  async setLimits(email: string, update: AccountLimitsUpdate): Promise<{ account: PublicAccount; limits: AccountLimits }> {
    checkLimit(update.requestsPerMinute, 'requestsPerMinute');
    checkLimit(update.charactersPerDay, 'charactersPerDay');
    const account = await this.accounts.findAccount(email);
    if (!(await this.store.setAccountLimits(account.id, update))) {
      throw gatewayError('TTS_ERR_NOT_FOUND', { what: 'account with this email' }, { details: [{ field: 'email', reason: 'unknown' }] });
    }
    return { account, limits: await this.store.getAccountLimits(account.id) };
  }

  /** The account's usage report, as GET /api/v1/usage gives it (default: the last 30 days). */
  async usage(email: string, range: UsageRange): Promise<{ account: PublicAccount; report: UsageReport }> {
    const account = await this.accounts.findAccount(email);
    return { account, report: await this.accounts.usageReport(account.id, range) };
  }
}
