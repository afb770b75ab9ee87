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
  readonly windowMs: number;
  readonly counters: WindowCounters;
}

/** An attempt counted before its password was checked; it stays counted as a failure unless told otherwise. */
export interface ThrottledAttempt {
  /** The password was right: the email's failures are cleared, and this attempt is not one. */
  succeeded(): Promise<void>;
  /** The attempt failed through no fault of the client's (a server fault): it is not a failure. */
  withdraw(): Promise<void>;
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

  /**
   * Counts an attempt as a failure before its password is checked, in one step with the check
   * of both limits: guesses sent together cannot each pass a count that none of them has added
   * to yet. Throws 429 when this email or address has used up its failures.
   */
  async attempt(action: CredentialAction, email: unknown, address: string): Promise<ThrottledAttempt> {
    const { counters, failures, addressFailures } = this.options;
    const { windowSeconds } = this;
    const emailKey = this.emailKey(action, email);
    const addressKey = this.addressKey(action, address);
    const addition = await counters.addWithinQuotas([
      { key: emailKey, points: 1, windowSeconds, quota: failures },
      { key: addressKey, points: 1, windowSeconds, quota: addressFailures },
    ]);
    if (!addition.added) {
      const [byEmail, byAddress] = addition.counts;
      throw refusal(action, [byEmail.count >= failures ? byEmail : undefined, byAddress.count >= addressFailures ? byAddress : undefined]);
    }
    return {
      succeeded: async () => {
        await Promise.all([counters.reset(emailKey, windowSeconds), addition.subtract(addressKey, 1, windowSeconds)]);
      },
      withdraw: async () => {
        await Promise.all([addition.subtract(emailKey, 1, windowSeconds), addition.subtract(addressKey, 1, windowSeconds)]);
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
function refusal(action: CredentialAction, usedUp: readonly (WindowCount | undefined)[]) {
  const blocked = usedUp.filter((count) => count !== undefined);
  const retryAfterSeconds = Math.max(1, ...blocked.map((count) => Math.ceil(count.msBeforeReset / 1000)));
  const provider = `The gateway (too many failed ${action === 'login' ? 'logins' : 'registrations'})`;
  return gatewayError('TTS_ERR_RATE_LIMITED', { provider, retryAfterSeconds }, { details: [{ reason: 'too_many_failures', action }], retryAfterSeconds });
}
