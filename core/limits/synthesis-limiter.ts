import type { LimitValues, LimitsConfig } from '../../config/types';
import { msUntilNextUtcDay, utcDay } from '../accounts/utc-day';
import { gatewayError, type GatewayError } from '../errors';
import { StoredDayCharacters, type DayCharacters, type StoredCharacters } from './stored-day-characters';
import type { WindowCount, WindowCounters } from './window-counters';

export type LimitUnit = 'requests' | 'characters';

/** One limit as it applies to a request: what the RateLimit headers describe. */
export interface AppliedLimit {
  /** `account-minute`, `account-day`, `key-minute`, `key-day`. */
  readonly name: string;
  readonly unit: LimitUnit;
  readonly quota: number;
  readonly windowSeconds: number;
  /** Left in the window after this request (or, when refused, before it). */
  readonly remaining: number;
  /** Seconds until the window starts again. */
  readonly resetSeconds: number;
}

/** The answer for one request: the limits that apply, and a refusal when one would be exceeded. */
export interface LimitVerdict {
  readonly limits: readonly AppliedLimit[];
  /** 429 TTS_ERR_RATE_LIMITED with Retry-After; nothing was counted. */
  readonly refusal?: GatewayError;
  /** Gives this request's characters back (it failed); its request still counts. */
  refundCharacters(): Promise<void>;
  /** When the request was counted (Unix ms): its characters were charged to this time's UTC day. */
  readonly admittedAt: number;
}

export interface Caller {
  readonly accountId: string;
  readonly keyId: string;
}

export interface SynthesisLimiterOptions {
  /** Defaults per account, and caps per key. */
  readonly limits: LimitsConfig;
  readonly counters: WindowCounters;
  /** An account's own limits, which replace the defaults they name. */
  readonly accountLimits: (accountId: string) => Promise<LimitValues>;
  /** The characters the database holds per key: a daily counter opens with the day's (after a restart). */
  readonly storedCharacters?: StoredCharacters;
  readonly now?: () => number;
}

interface Policy {
  readonly name: string;
  readonly unit: LimitUnit;
  readonly quota: number;
  readonly windowSeconds: number;
  readonly counterKey: string;
  readonly points: number;
  /** Fixed reset (a calendar day); else the counter's own window. */
  readonly resetSeconds?: number;
  /** The count its window opens with (a day's characters used before the counters counted them). */
  readonly openingCount?: number;
}

const MINUTE = 60;
const DAY = 86_400;
const DAY_MS = DAY * 1000;
const NO_REFUND = async (): Promise<void> => undefined;

/**
 * Requests per minute and characters per UTC day, per account and per key, checked before any
 * provider is called. A request that would exceed any limit is refused as a whole and counts
 * against none; a failed request gets its characters back.
 */
export class SynthesisLimiter {
  private readonly now: () => number;
  private readonly storedDays?: StoredDayCharacters;

  constructor(private readonly options: SynthesisLimiterOptions) {
    this.now = options.now ?? Date.now;
    this.storedDays = options.storedCharacters && new StoredDayCharacters(options.storedCharacters);
    // A Redis that restarted lost the day's counts: they open again from what the database holds now.
    options.counters.onCountsLost?.(() => this.storedDays?.forget());
  }

  async admit(caller: Caller, characters: number): Promise<LimitVerdict> {
    const now = this.now();
    const limits = await this.accountLimits(caller.accountId);
    const countsKeyCharacters = this.options.limits.perKey.charactersPerDay !== undefined;
    const countsCharacters = limits.charactersPerDay !== undefined || countsKeyCharacters;
    // A key's daily counter opens from the database as of the key's first use here; without a per-key limit the account's read serves.
    const keyOpening = countsKeyCharacters ? caller.keyId : undefined;
    const stored = countsCharacters ? await this.storedDays?.of(caller.accountId, now - (now % DAY_MS), keyOpening) : undefined;
    const policies = this.policies(caller, characters, limits, now, stored);
    if (policies.length === 0) return { limits: [], refundCharacters: NO_REFUND, admittedAt: now };
    // One step for every limit: a request refused for one is never counted against another, so
    // a large refused request cannot make a small concurrent one look over its limit.
    const addition = await this.options.counters.addWithinQuotas(
      policies.map((policy) => ({ key: policy.counterKey, points: policy.points, windowSeconds: policy.windowSeconds, quota: policy.quota, openingCount: policy.openingCount })),
    );
    const { counts } = addition;
    const applied = policies.map(
      (policy, index): AppliedLimit => ({
        name: policy.name,
        unit: policy.unit,
        quota: policy.quota,
        windowSeconds: policy.windowSeconds,
        // Refused: the count as it is, this request not in it.
        remaining: Math.max(0, policy.quota - counts[index].count),
        resetSeconds: policy.resetSeconds ?? resetSecondsOf(counts[index], policy.windowSeconds),
      }),
    );
    if (!addition.added) {
      const exceeded = policies.filter((policy, index) => counts[index].count + policy.points > policy.quota);
      return { limits: applied, refusal: refusal(exceeded, applied, characters), refundCharacters: NO_REFUND, admittedAt: now };
    }
    const characterPolicies = policies.filter((policy) => policy.unit === 'characters' && policy.points > 0);
    let refunded = false;
    return {
      limits: applied,
      admittedAt: now,
      refundCharacters: async () => {
        if (refunded) return;
        refunded = true;
        await Promise.all(characterPolicies.map((policy) => addition.subtract(policy.counterKey, policy.points, policy.windowSeconds)));
      },
    };
  }

  private async accountLimits(accountId: string): Promise<LimitValues> {
    const overrides = await this.options.accountLimits(accountId);
    const defaults = this.options.limits;
    return {
      requestsPerMinute: overrides.requestsPerMinute ?? defaults.requestsPerMinute,
      charactersPerDay: overrides.charactersPerDay ?? defaults.charactersPerDay,
    };
  }

  private policies(caller: Caller, characters: number, account: LimitValues, now: number, stored: DayCharacters | undefined): Policy[] {
    const day = utcDay(now);
    const untilMidnight = Math.max(1, Math.ceil(msUntilNextUtcDay(now) / 1000));
    const scopes: [scope: string, id: string, values: LimitValues, usedBefore: number | undefined][] = [
      ['account', caller.accountId, account, stored?.account],
      ['key', caller.keyId, this.options.limits.perKey, stored?.byKey.get(caller.keyId)],
    ];
    const policies: Policy[] = [];
    for (const [scope, id, values, usedBefore] of scopes) {
      if (values.requestsPerMinute !== undefined) {
        policies.push({ name: `${scope}-minute`, unit: 'requests', quota: values.requestsPerMinute, windowSeconds: MINUTE, counterKey: `rpm:${scope}:${id}`, points: 1 });
      }
      if (values.charactersPerDay !== undefined) {
        policies.push({
          name: `${scope}-day`,
          unit: 'characters',
          quota: values.charactersPerDay,
          windowSeconds: DAY,
          counterKey: `cpd:${scope}:${id}:${day}`,
          points: characters,
          resetSeconds: untilMidnight,
          openingCount: usedBefore,
        });
      }
    }
    return policies;
  }
}

/** Seconds until the counter's window ends; a refusal with no window open (a quota the request alone exceeds) waits a whole one. */
function resetSecondsOf(count: WindowCount, windowSeconds: number): number {
  return count.msBeforeReset > 0 ? Math.max(1, Math.ceil(count.msBeforeReset / 1000)) : windowSeconds;
}

function refusal(exceeded: readonly Policy[], applied: readonly AppliedLimit[], characters: number): GatewayError {
  const byName = new Map(applied.map((limit) => [limit.name, limit]));
  const retryAfterSeconds = Math.max(...exceeded.map((policy) => byName.get(policy.name)?.resetSeconds ?? 1));
  const [first] = exceeded;
  const who = first.name.startsWith('key') ? 'this API key' : 'this account';
  const what =
    first.unit === 'requests'
      ? `${first.quota} synthesis requests per minute`
      : `${first.quota} characters per day, ${byName.get(first.name)?.remaining ?? 0} left, ${characters} asked`;
  return gatewayError('TTS_ERR_RATE_LIMITED', { provider: `The gateway (${who}: ${what})`, retryAfterSeconds }, {
    details: exceeded.map((policy) => ({ reason: 'limit_exceeded', policy: policy.name, unit: policy.unit, quota: policy.quota, windowSeconds: policy.windowSeconds })),
    retryAfterSeconds,
  });
}
