import { randomBytes, randomUUID } from 'node:crypto';
import { GatewayError, gatewayError } from '../errors';
import type { AccountRecord, AccountStore, ApiKeyRecord } from './account-store';
import { publicAccount, summarizeKey, type ApiKeySummary, type AuthenticatedKey, type IssuedApiKey, type PublicAccount } from './account-views';
import { ActivityWriter } from './activity-writer';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { checkKeyLifetime, checkKeyName, isExpired, issueApiKey } from './api-key-issuing';
import { DEFAULT_MAX_KEYS_PER_ACCOUNT, keyCapReached } from './key-cap';
import { checkPassword, checkWellFormedPassword, earlierStoredForm, foldEmail, mayBeStoredEmail, normalizeEmail } from './credential-rules';
import type { KeyRevocations } from './key-revocations';
import { LoginPasswordCheck } from './login-password-check';
import { buildUsageReport, type UsageRange, type UsageReport } from './usage-report';
import { DEFAULT_SCRYPT_PARAMETERS, hashPassword, verifyPassword, type ScryptParameters } from './password-hashing';

export type { ApiKeySummary, AuthenticatedKey, IssuedApiKey, PublicAccount } from './account-views';

export interface UsageInput {
  readonly model: string;
  readonly characters: number;
  readonly bytes: number;
  readonly audioSeconds?: number;
  readonly cacheHit?: boolean;
}

export interface AccountServiceOptions {
  readonly registration: 'open' | 'closed';
  /** Lifetime of keys issued by login, in milliseconds; absent = they never expire. */
  readonly loginKeyTtlMs?: number;
  /** Live keys one account may hold (`auth.maxKeysPerAccount`); absent = DEFAULT_MAX_KEYS_PER_ACCOUNT. */
  readonly maxKeysPerAccount?: number;
  /** Lower only in tests; stored hashes carry their own parameters. */
  readonly scrypt?: ScryptParameters;
  /** Checks a password against a stored hash; tests wrap the real one to watch the work done. */
  readonly verifyPassword?: (password: string, stored: string) => Promise<boolean>;
  readonly now?: () => number;
  /**
   * Caches key lookups for this long, in milliseconds (replicas). Absent: cached for a minute
   * when the store tells about other processes' changes (SQLite's change marker), else every
   * request reads the store.
   */
  readonly keyCacheTtlMs?: number;
  /** Revocations shared with the other replicas, which drop the key from their caches. */
  readonly revocations?: KeyRevocations;
  /**
   * How long `lastUsedAt` updates and usage rows wait to be written together; by default they
   * are written at the end of the event-loop turn that produced them.
   */
  readonly activityFlushMs?: number;
  /** A key's `lastUsedAt` is written at most once in this long; reads still show its newest use (default 0: with every batch). */
  readonly lastUseResolutionMs?: number;
  /** Told when batched activity could not be written (it is retried; requests never fail for it). */
  readonly onActivityError?: (error: unknown) => void;
}

const BAD_CREDENTIALS = 'Invalid email or password';

function emailTaken(): GatewayError {
  return new GatewayError('TTS_ERR_CONFLICT', 'An account with this email already exists', { details: [{ field: 'email', reason: 'taken' }] });
}
/** Usage rows held while the store keeps failing, before the oldest are dropped. */
const MAX_PENDING_USAGE = 100_000;

/** Registration, login and API keys. All failures are GatewayErrors safe to show a client. */
export class AccountService {
  private readonly now: () => number;
  private readonly scrypt: ScryptParameters;
  private readonly passwordCheck: LoginPasswordCheck;
  private readonly authenticator: ApiKeyAuthenticator;
  private readonly activity: ActivityWriter;

  constructor(
    private readonly store: AccountStore,
    private readonly options: AccountServiceOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.scrypt = options.scrypt ?? DEFAULT_SCRYPT_PARAMETERS;
    this.authenticator = new ApiKeyAuthenticator(store, {
      keyCacheTtlMs: options.keyCacheTtlMs,
      revocations: options.revocations,
      now: this.now,
      onUse: (keyId, now) => this.activity.touch(keyId, now),
    });
    this.activity = new ActivityWriter(store, {
      flushIntervalMs: options.activityFlushMs ?? 0,
      lastUseResolutionMs: options.lastUseResolutionMs ?? 0,
      maxPendingUsage: MAX_PENDING_USAGE,
      onError: options.onActivityError ?? (() => undefined),
    });
    this.passwordCheck = new LoginPasswordCheck(this.scrypt, options.verifyPassword);
    this.passwordCheck.prepare();
  }

  /**
   * 403 while `auth.registration` is closed. Asked before the login throttle counts a
   * registration: a closed door holds no secret to guess, so knocking on it is no failed attempt.
   */
  checkRegistrationOpen(): void {
    if (this.options.registration !== 'open') throw new GatewayError('TTS_ERR_FORBIDDEN', 'Registration is closed on this gateway');
  }

  async register(email: string, password: string): Promise<{ account: PublicAccount; apiKey: IssuedApiKey }> {
    this.checkRegistrationOpen();
    const normalizedEmail = normalizeEmail(email);
    checkPassword(password);
    // The unique email constraint cannot see an address stored before in its decomposed form.
    const storedEarlier = earlierStoredForm(normalizedEmail);
    if (storedEarlier !== undefined && (await this.store.findAccountByEmail(storedEarlier))) throw emailTaken();
    const account: AccountRecord = {
      id: randomUUID(),
      email: normalizedEmail,
      passwordHash: await hashPassword(password, this.scrypt),
      createdAt: this.now(),
    };
    const { record, issued } = this.newKey(account.id, 'default');
    const result = await this.store.createAccountWithKey(account, record);
    if (result === 'duplicate-email') throw emailTaken();
    return { account: publicAccount(account), apiKey: issued };
  }

  /** Checks the password and issues a new key. Unknown email and wrong password look the same. */
  async login(email: string, password: string): Promise<{ account: PublicAccount; apiKey: IssuedApiKey }> {
    const normalizedEmail = foldEmail(email);
    const candidate = typeof password === 'string' ? password : '';
    // Refused before any lookup, so the answer says nothing about the account.
    checkWellFormedPassword(candidate);
    // An email no account can have is not looked up: PostgreSQL would fail on a NUL (a 500) and
    // read a lone surrogate as U+FFFD (another address's account).
    const account = normalizedEmail && mayBeStoredEmail(normalizedEmail) ? await this.findAccountByEmail(normalizedEmail) : undefined;
    const matches = await this.passwordCheck.matches(candidate, account?.passwordHash);
    if (!account || !matches) throw new GatewayError('TTS_ERR_UNAUTHORIZED', BAD_CREDENTIALS);
    const ttl = this.options.loginKeyTtlMs;
    const { record, issued } = this.newKey(account.id, 'login', ttl === undefined ? null : this.now() + ttl);
    // At the cap the oldest login key makes room: a user who lost every key can only get one by logging in.
    await this.createWithinCap({ ...record, madeByLogin: true }, true);
    return { account: publicAccount(account), apiKey: issued };
  }

  /**
   * Resolves an X-API-Key value to its account; 401 when missing, unknown, revoked or expired.
   * A known live key is answered from memory; its `lastUsedAt` is written later, in a batch.
   */
  authenticate(apiKey: string | undefined): Promise<AuthenticatedKey> {
    return this.authenticator.authenticate(apiKey);
  }

  /** Live keys of an account (neither revoked nor expired), with uses not yet written. */
  async listKeys(accountId: string): Promise<ApiKeySummary[]> {
    const keys = await this.store.listApiKeys(accountId);
    const now = this.now();
    return keys
      .filter((key) => key.revokedAt === null && !isExpired(key, now))
      .map((key) => {
        const pending = this.activity.pendingLastUse(key.id);
        return summarizeKey(pending !== undefined && pending > (key.lastUsedAt ?? 0) ? { ...key, lastUsedAt: pending } : key);
      });
  }

  /** Issues a named key; `expiresInSeconds` bounds its life (absent = until revoked). */
  async createKey(accountId: string, name: string, expiresInSeconds?: number): Promise<IssuedApiKey> {
    const trimmed = checkKeyName(name);
    checkKeyLifetime(expiresInSeconds);
    const { record, issued } = this.newKey(accountId, trimmed, expiresInSeconds === undefined ? null : this.now() + expiresInSeconds * 1000);
    await this.createWithinCap(record, false);
    return issued;
  }

  /** Stores a key unless the account is at its key cap (409); evicted login keys are revoked like any other. */
  private async createWithinCap(record: ApiKeyRecord, evictLoginKeys: boolean): Promise<void> {
    const maxLiveKeys = this.options.maxKeysPerAccount ?? DEFAULT_MAX_KEYS_PER_ACCOUNT;
    const result = await this.store.createApiKeyWithinCap(record, { maxLiveKeys, evictLoginKeys, now: this.now() });
    if (result.outcome === 'at-cap') throw keyCapReached(result.liveKeys, maxLiveKeys);
    for (const keyId of result.evictedKeyIds) {
      this.authenticator.forgetKey(keyId);
      await this.options.revocations?.announce(keyId);
    }
  }

  /** Deletes expired keys; answers how many (run periodically by the gateway). */
  sweepExpiredKeys(): Promise<number> {
    return this.store.deleteExpiredApiKeys(this.now());
  }

  /** Revokes one of the caller's keys; it stops working at once. 404 for anyone else's key. */
  async revokeKey(accountId: string, keyId: string): Promise<void> {
    const revoked = await this.store.revokeApiKey(accountId, keyId, this.now());
    if (!revoked) throw gatewayError('TTS_ERR_NOT_FOUND', { what: 'API key' }, { details: [{ field: 'id', reason: 'not found' }] });
    this.authenticator.forgetKey(keyId);
    await this.options.revocations?.announce(keyId);
  }

  /**
   * Operator path (the CLI), for config-driven deployments with registration closed: issues a
   * named key for the account with this email, creating the account when it does not exist.
   * Without a password the account cannot log in; its keys are managed by the operator. With a
   * password and an existing account, the password must match (401 otherwise).
   */
  async provisionKey(email: string, keyName: string, password?: string): Promise<{ account: PublicAccount; apiKey: IssuedApiKey; created: boolean }> {
    const normalizedEmail = normalizeEmail(email);
    // Checked here too: a new account's first key is issued below without createKey().
    const name = checkKeyName(keyName);
    const existing = await this.findAccountByEmail(normalizedEmail);
    if (existing) {
      // A password given for an existing account must be its own: never silently ignored.
      if (password !== undefined && !(await verifyPassword(password, existing.passwordHash))) {
        throw new GatewayError('TTS_ERR_UNAUTHORIZED', `The password does not match account ${existing.email}; leave out the password to issue a key for it anyway`, {
          details: [{ field: 'password', reason: 'mismatch' }],
        });
      }
      const apiKey = await this.createKey(existing.id, name);
      return { account: publicAccount(existing), apiKey, created: false };
    }
    if (password !== undefined) checkPassword(password);
    const account: AccountRecord = {
      id: randomUUID(),
      email: normalizedEmail,
      passwordHash: await hashPassword(password ?? randomBytes(32).toString('base64url'), this.scrypt),
      createdAt: this.now(),
    };
    const { record, issued } = this.newKey(account.id, name);
    const result = await this.store.createAccountWithKey(account, record);
    if (result === 'duplicate-email') return this.provisionKey(email, name, password);
    return { account: publicAccount(account), apiKey: issued, created: true };
  }

  /** Operator path: the account with this email, or 404. */
  async findAccount(email: string): Promise<PublicAccount> {
    const account = await this.findAccountByEmail(normalizeEmail(email));
    if (!account) throw gatewayError('TTS_ERR_NOT_FOUND', { what: 'account with this email' }, { details: [{ field: 'email', reason: 'unknown' }] });
    return publicAccount(account);
  }

  /** Throws when the account database cannot be read (readiness check). */
  async checkDatabase(): Promise<void> {
    await this.store.ping();
  }

  /**
   * Queues a usage row for the next batch; resolves once that batch was written (or failed and
   * was reported to `onActivityError`); never rejects. Callers on the request path need not wait for it.
   * `at` dates the row (default: now): a request's rows go to the UTC day its characters were charged to.
   */
  recordUsage(accountId: string, keyId: string, usage: UsageInput, at?: number): Promise<void> {
    // Object.assign rather than a spread between fields: see extended() (measured on the request path).
    return this.activity.record(Object.assign({ accountId, keyId }, usage, { createdAt: at ?? this.now() }));
  }

  /** Writes the batched activity now; call before closing the store. */
  flushActivity(): Promise<void> {
    return this.activity.flush();
  }

  /**
   * Queues a failed synthesis (a request, and unless `error` is false an error, in the account's daily usage) for the next
   * batch, as `recordUsage` does: during a provider outage every failing request would otherwise
   * wait for a write of its own before its error answer.
   */
  recordFailedUsage(accountId: string, model: string, error = true, at?: number): Promise<void> {
    return this.activity.recordFailure({ accountId, model, createdAt: at ?? this.now(), error });
  }

  /** The account's usage over a range of UTC days (default: the last 30), batched rows included. */
  async usageReport(accountId: string, range: UsageRange = {}): Promise<UsageReport> {
    await this.activity.flush();
    return buildUsageReport(this.store, accountId, range, this.now());
  }

  /** The account of a folded email, or of its decomposed form as versions before composition stored it. */
  private async findAccountByEmail(folded: string): Promise<AccountRecord | undefined> {
    const found = await this.store.findAccountByEmail(folded);
    const storedEarlier = found ? undefined : earlierStoredForm(folded);
    return found ?? (storedEarlier === undefined ? undefined : this.store.findAccountByEmail(storedEarlier));
  }

  private newKey(accountId: string, name: string, expiresAt: number | null = null): { record: ApiKeyRecord; issued: IssuedApiKey } {
    return issueApiKey(accountId, name, expiresAt, this.now());
  }
}
