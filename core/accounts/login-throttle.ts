import { gatewayError } from '../errors';
import type { WindowCounters } from '../limits/window-counters';

export type CredentialAction = 'login' | 'register';

export interface LoginThrottleOptions {
  /** Failures tolerated per email address in a window. */
  readonly failures: number;
  /** Failures tolerated per client address in a window, whatever the email. */
  readonly addressFailures: number;
  readonly windowMs: number;
  readonly counters: WindowCounters;
}

const MAX_KEY_EMAIL_LENGTH = 254;

/**
 * Slows password guessing: after a handful of failed logins (or registrations) for one email,
 * or from one client address, the next attempts are refused with 429 and Retry-After until the
 * window ends, without checking the password. A success clears the email's count.
 */
export class LoginThrottle {
  private readonly windowSeconds: number;

  constructor(private readonly options: LoginThrottleOptions) {
    this.windowSeconds = Math.max(1, Math.ceil(options.windowMs / 1000));
  }

  /** Throws 429 when this email or address has used up its failures. */
  async check(action: CredentialAction, email: unknown, address: string): Promise<void> {
    const { counters, failures, addressFailures } = this.options;
    const [byEmail, byAddress] = await Promise.all([
      counters.peek(this.emailKey(action, email), this.windowSeconds),
      counters.peek(this.addressKey(action, address), this.windowSeconds),
    ]);
    const blocked = [byEmail.count >= failures ? byEmail : undefined, byAddress.count >= addressFailures ? byAddress : undefined].filter((count) => count !== undefined);
    if (blocked.length === 0) return;
    const retryAfterSeconds = Math.max(1, ...blocked.map((count) => Math.ceil(count.msBeforeReset / 1000)));
    const provider = `The gateway (too many failed ${action === 'login' ? 'logins' : 'registrations'})`;
    throw gatewayError('TTS_ERR_RATE_LIMITED', { provider, retryAfterSeconds }, { details: [{ reason: 'too_many_failures', action }], retryAfterSeconds });
  }

  async recordFailure(action: CredentialAction, email: unknown, address: string): Promise<void> {
    const { counters } = this.options;
    await Promise.all([counters.add(this.emailKey(action, email), 1, this.windowSeconds), counters.add(this.addressKey(action, address), 1, this.windowSeconds)]);
  }

  async recordSuccess(action: CredentialAction, email: unknown): Promise<void> {
    await this.options.counters.reset(this.emailKey(action, email), this.windowSeconds);
  }

  private emailKey(action: CredentialAction, email: unknown): string {
    const normalized = typeof email === 'string' ? email.trim().toLowerCase().slice(0, MAX_KEY_EMAIL_LENGTH) : '';
    return `auth:${action}:email:${normalized}`;
  }

  private addressKey(action: CredentialAction, address: string): string {
    return `auth:${action}:address:${address}`;
  }
}
