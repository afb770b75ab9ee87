import { gatewayError } from '../errors';
import type { WindowCount, WindowCounters } from '../limits/window-counters';
import { addressBlock } from './address-block';
import { foldEmail } from './credential-rules';

export type CredentialAction = 'login' | 'register';

export interface LoginThrottleOptions {
  /** Failures tolerated per email address in a window. */
  readonly failures: number;
  /** Failures tolerated per client address (an IPv6 one by its /64) in a window, whatever the email. */
  readonly addressFailures: number;
  /**
   * Accounts one client address (an IPv6 one by its /64) may register in a window, however
   * their passwords went: open registration would otherwise hand one client accounts, and keys
   * with their own quotas, without end.
   */
  readonly addressRegistrations: number;
  readonly windowMs: number;
  readonly counters: WindowCounters;
}

/** An attempt counted before its password was checked; it stays counted as a failure unless told otherwise. */
export interface ThrottledAttempt {
  /** The password was right: the email's failures are cleared, and this attempt is not one. */
  succeeded(): Promise<void>;
  /** The attempt failed through the client's fault (4xx): it stays a failure, but a registration it made room for is given back (no account was made). */
  failed(): Promise<void>;
  /** The attempt failed through no fault of the client's (a server fault): it is not a failure. */
  withdraw(): Promise<void>;
}

const MAX_KEY_EMAIL_LENGTH = 254;

/**
 * Slows password guessing: after a handful of failed logins (or registrations) for one email,
 * or from one client address, the next attempts are refused with 429 and Retry-After until the
 * window ends, without checking the password. A success clears the email's count. Registrations
 * are also bounded per client address, successful ones included.
 */
export class LoginThrottle {
  private readonly windowSeconds: number;

  constructor(private readonly options: LoginThrottleOptions) {
    this.windowSeconds = Math.max(1, Math.ceil(options.windowMs / 1000));
  }

  /**
   * Counts an attempt as a failure before its password is checked, in one step with the check
   * of both limits: guesses sent together cannot each pass a count that none of them has added
   * to yet. Throws 429 when this email or address has used up its failures.
   */
  async attempt(action: CredentialAction, email: unknown, address: string): Promise<ThrottledAttempt> {
    const { counters, failures, addressFailures, addressRegistrations } = this.options;
    const { windowSeconds } = this;
    const emailKey = this.emailKey(action, email);
    const addressKey = this.addressKey(action, address);
    // A registration also takes one of its address's accounts, in the same step: registrations
    // sent together cannot each pass a count none of them has added to yet.
    const registrationsKey = action === 'register' ? `auth:registered:address:${addressBlock(address)}` : undefined;
    const addition = await counters.addWithinQuotas([
      { key: emailKey, points: 1, windowSeconds, quota: failures },
      { key: addressKey, points: 1, windowSeconds, quota: addressFailures },
      ...(registrationsKey ? [{ key: registrationsKey, points: 1, windowSeconds, quota: addressRegistrations }] : []),
    ]);
    if (!addition.added) {
      const [byEmail, byAddress, byRegistrations] = addition.counts;
      const failuresUsedUp = [byEmail.count >= failures ? byEmail : undefined, byAddress.count >= addressFailures ? byAddress : undefined];
      const registrationsUsedUp = byRegistrations !== undefined && byRegistrations.count >= addressRegistrations ? byRegistrations : undefined;
      throw refusal(action, failuresUsedUp, registrationsUsedUp);
    }
    const giveBackRegistration = async (): Promise<void> => {
      if (registrationsKey) await addition.subtract(registrationsKey, 1, windowSeconds);
    };
    return {
      succeeded: async () => {
        await Promise.all([counters.reset(emailKey, windowSeconds), addition.subtract(addressKey, 1, windowSeconds)]);
      },
      failed: giveBackRegistration,
      withdraw: async () => {
        await Promise.all([addition.subtract(emailKey, 1, windowSeconds), addition.subtract(addressKey, 1, windowSeconds), giveBackRegistration()]);
      },
    };
  }

  private emailKey(action: CredentialAction, email: unknown): string {
    // Folded as login and registration fold it: each form of one address counts for that address.
    const normalized = foldEmail(email as string).slice(0, MAX_KEY_EMAIL_LENGTH);
    return `auth:${action}:email:${normalized}`;
  }

  private addressKey(action: CredentialAction, address: string): string {
    // An IPv6 client by its /64: each of its 2^64 addresses alone would be a fresh count.
    return `auth:${action}:address:${addressBlock(address)}`;
  }
}

/** 429 until the last of the used-up counts (undefined: not used up) starts again. */
function refusal(action: CredentialAction, failuresUsedUp: readonly (WindowCount | undefined)[], registrationsUsedUp: WindowCount | undefined) {
  const blocked = [...failuresUsedUp, registrationsUsedUp].filter((count) => count !== undefined);
  const retryAfterSeconds = Math.max(1, ...blocked.map((count) => Math.ceil(count.msBeforeReset / 1000)));
  const tooManyFailures = failuresUsedUp.some((count) => count !== undefined);
  const what = tooManyFailures ? `too many failed ${action === 'login' ? 'logins' : 'registrations'}` : 'too many registrations from this address';
  const reason = tooManyFailures ? 'too_many_failures' : 'too_many_registrations';
  return gatewayError('TTS_ERR_RATE_LIMITED', { provider: `The gateway (${what})`, retryAfterSeconds }, { details: [{ reason, action }], retryAfterSeconds });
}
