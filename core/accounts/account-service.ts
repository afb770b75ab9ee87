import { randomBytes, randomUUID } from 'node:crypto';
import { GatewayError, gatewayError } from '../errors';
import type { AccountRecord, AccountStore, ApiKeyRecord } from './account-store';
import { hashesEqual, hashApiKey, looksLikeApiKey, mintApiKey } from './api-key';
import { ActivityWriter } from './activity-writer';
import { ApiKeyCache, type CachedKey } from './api-key-cache';
import type { KeyRevocations } from './key-revocations';
import { buildUsageReport, type UsageRange, type UsageReport } from './usage-report';
import { DEFAULT_SCRYPT_PARAMETERS, hashPassword, verifyPassword, type ScryptParameters } from './password-hashing';

/** An account as callers may see it (no password hash). */
export interface PublicAccount {
  readonly id: string;
  readonly email: string;
}

/** A key as listed: never the key itself nor its hash. */
export interface ApiKeySummary {
  readonly id: string;
  readonly name: string;
  readonly prefix: string;
  readonly createdAt: number;
  readonly lastUsedAt: number | null;
  /** When the key stops working (Unix milliseconds); null = never. */
  readonly expiresAt: number | null;
}

/** A newly issued key: `apiKey` is shown this once and cannot be recovered. */
export interface IssuedApiKey extends ApiKeySummary {
  readonly apiKey: string;
}

/** Who is calling: the account and the key it used. */
export interface AuthenticatedKey {
  readonly account: PublicAccount;
  readonly keyId: string;
}

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
  /** Told when batched activity could not be written (it is retried; requests never fail for it). */
  readonly onActivityError?: (error: unknown) => void;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const MAX_EMAIL_LENGTH = 254;
const MIN_PASSWORD_LENGTH = 8;
const MAX_PASSWORD_LENGTH = 1024;
const MAX_KEY_NAME_LENGTH = 100;
const BAD_CREDENTIALS = 'Invalid email or password';
const BAD_KEY = 'A valid X-API-Key header is required';
const EXPIRED_KEY = 'The API key has expired; log in again or create a new key';
/** Bounds of a key lifetime asked for at creation, in seconds: a minute to ten years. */
const MIN_KEY_LIFETIME_SECONDS = 60;
const MAX_KEY_LIFETIME_SECONDS = 10 * 366 * 86_400;
/** How long a key is trusted in memory when the store reports other processes' changes anyway. */
const LOCAL_KEY_CACHE_TTL_MS = 60_000;
/** Usage rows held while the store keeps failing, before the oldest are dropped. */
const MAX_PENDING_USAGE = 100_000;

const summarize = (key: ApiKeyRecord): ApiKeySummary => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  createdAt: key.createdAt,
  lastUsedAt: key.lastUsedAt,
  expiresAt: key.expiresAt ?? null,
});

const isExpired = (key: ApiKeyRecord, now: number): boolean => key.expiresAt != null && key.expiresAt <= now;

/** Registration, login and API keys. All failures are GatewayErrors safe to show a client. */
export class AccountService {
  private readonly now: () => number;
  private readonly scrypt: ScryptParameters;
  /** Verified against when the email is unknown, so both failures take the same time. */
  private decoyHash: Promise<string> | undefined;
  private readonly keyCache: ApiKeyCache | undefined;
  private readonly activity: ActivityWriter;
  /** The store's change marker when the key cache was last known to match it. */
  private storeMarker: number | undefined;

  constructor(
    private readonly store: AccountStore,
    private readonly options: AccountServiceOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.scrypt = options.scrypt ?? DEFAULT_SCRYPT_PARAMETERS;
    this.storeMarker = store.changeMarker?.();
    const ttlMs = options.keyCacheTtlMs ?? (this.storeMarker !== undefined ? LOCAL_KEY_CACHE_TTL_MS : undefined);
    const cache = ttlMs !== undefined ? new ApiKeyCache({ ttlMs }) : undefined;
    this.keyCache = cache;
    if (cache) options.revocations?.listen({ onRevoked: (keyId) => cache.forgetKey(keyId), onMissed: () => cache.clear() });
    this.activity = new ActivityWriter(store, {
      flushIntervalMs: options.activityFlushMs ?? 0,
      maxPendingUsage: MAX_PENDING_USAGE,
      onError: options.onActivityError ?? (() => undefined),
    });
    // Hashed now, so that the first unknown-email login costs what every later one does.
    void this.decoy();
  }

  async register(email: string, password: string): Promise<{ account: PublicAccount; apiKey: IssuedApiKey }> {
    if (this.options.registration !== 'open') throw new GatewayError('TTS_ERR_FORBIDDEN', 'Registration is closed on this gateway');
    const normalizedEmail = normalizeEmail(email);
    checkPassword(password);
    const account: AccountRecord = {
      id: randomUUID(),
      email: normalizedEmail,
      passwordHash: await hashPassword(password, this.scrypt),
      createdAt: this.now(),
    };
    const { record, issued } = this.newKey(account.id, 'default');
    const result = await this.store.createAccountWithKey(account, record);
    if (result === 'duplicate-email') {
      throw new GatewayError('TTS_ERR_CONFLICT', 'An account with this email already exists', {
        details: [{ field: 'email', reason: 'taken' }],
      });
    }
    return { account: { id: account.id, email: account.email }, apiKey: issued };
  }

  /** Checks the password and issues a new key. Unknown email and wrong password look the same. */
  async login(email: string, password: string): Promise<{ account: PublicAccount; apiKey: IssuedApiKey }> {
    const normalizedEmail = typeof email === 'string' ? email.trim().toLowerCase() : '';
    const candidate = typeof password === 'string' ? password : '';
    // Refused before any lookup, so the answer says nothing about the account.
    checkWellFormed(candidate);
    const account = normalizedEmail ? await this.store.findAccountByEmail(normalizedEmail) : undefined;
    // An unknown email is checked against a decoy hash: the same work, the same time, as a wrong password.
    const verify = this.options.verifyPassword ?? verifyPassword;
    const matches = await verify(candidate, account?.passwordHash ?? (await this.decoy()));
    if (!account || !matches) throw new GatewayError('TTS_ERR_UNAUTHORIZED', BAD_CREDENTIALS);
    const ttl = this.options.loginKeyTtlMs;
    const { record, issued } = this.newKey(account.id, 'login', ttl === undefined ? null : this.now() + ttl);
    await this.store.createApiKey(record);
    return { account: { id: account.id, email: account.email }, apiKey: issued };
  }

  /**
   * Resolves an X-API-Key value to its account; 401 when missing, unknown, revoked or expired.
   * A known live key is answered from memory; its `lastUsedAt` is written later, in a batch.
   */
  async authenticate(apiKey: string | undefined): Promise<AuthenticatedKey> {
    if (typeof apiKey !== 'string' || !looksLikeApiKey(apiKey)) throw new GatewayError('TTS_ERR_UNAUTHORIZED', BAD_KEY);
    const keyHash = hashApiKey(apiKey);
    this.dropCacheIfStoreChanged();
    const { principal, expiresAt } = this.keyCache?.get(keyHash) ?? (await this.lookUpKey(keyHash));
    const now = this.now();
    // Checked on every request, cached or not: a key stops at its expiry to the millisecond.
    if (expiresAt !== null && expiresAt <= now) throw new GatewayError('TTS_ERR_UNAUTHORIZED', EXPIRED_KEY, { details: [{ reason: 'expired' }] });
    this.activity.touch(principal.keyId, now);
    return principal;
  }

  /** Reads a live key and its account from the store (and caches them unless a revocation raced the read); 401 otherwise. */
  private async lookUpKey(keyHash: string): Promise<CachedKey> {
    const generation = this.keyCache?.generation ?? 0;
    const key = await this.store.findApiKeyByHash(keyHash);
    if (!key || key.revokedAt !== null || !hashesEqual(key.keyHash, keyHash)) {
      throw new GatewayError('TTS_ERR_UNAUTHORIZED', BAD_KEY);
    }
    const account = await this.store.findAccountById(key.accountId);
    if (!account) throw new GatewayError('TTS_ERR_UNAUTHORIZED', BAD_KEY);
    const principal: AuthenticatedKey = Object.freeze({ account: Object.freeze({ id: account.id, email: account.email }), keyId: key.id });
    const entry: CachedKey = { principal, expiresAt: key.expiresAt ?? null };
    this.keyCache?.set(keyHash, entry, generation);
    return entry;
  }

  /** Another process (the CLI revoking a key) changed the store: nothing cached can be trusted. */
  private dropCacheIfStoreChanged(): void {
    if (this.storeMarker === undefined) return;
    const marker = this.store.changeMarker?.();
    if (marker === this.storeMarker) return;
    this.storeMarker = marker;
    this.keyCache?.clear();
  }

  /** Live keys of an account (neither revoked nor expired), with uses not yet written. */
  async listKeys(accountId: string): Promise<ApiKeySummary[]> {
    const keys = await this.store.listApiKeys(accountId);
    const now = this.now();
    return keys
      .filter((key) => key.revokedAt === null && !isExpired(key, now))
      .map((key) => {
        const pending = this.activity.pendingLastUse(key.id);
        return summarize(pending !== undefined && pending > (key.lastUsedAt ?? 0) ? { ...key, lastUsedAt: pending } : key);
      });
  }

  /** Issues a named key; `expiresInSeconds` bounds its life (absent = until revoked). */
  async createKey(accountId: string, name: string, expiresInSeconds?: number): Promise<IssuedApiKey> {
    const trimmed = typeof name === 'string' ? name.trim() : '';
    if (trimmed.length === 0 || [...trimmed].length > MAX_KEY_NAME_LENGTH) {
      throw new GatewayError('TTS_ERR_VALIDATION', `name must be between 1 and ${MAX_KEY_NAME_LENGTH} characters`, {
        details: [{ field: 'name', reason: 'length' }],
      });
    }
    if (expiresInSeconds !== undefined && !(Number.isInteger(expiresInSeconds) && expiresInSeconds >= MIN_KEY_LIFETIME_SECONDS && expiresInSeconds <= MAX_KEY_LIFETIME_SECONDS)) {
      throw new GatewayError('TTS_ERR_VALIDATION', `expiresIn must be a whole number of seconds between ${MIN_KEY_LIFETIME_SECONDS} and ${MAX_KEY_LIFETIME_SECONDS}`, {
        details: [{ field: 'expiresIn', reason: 'range' }],
      });
    }
    const { record, issued } = this.newKey(accountId, trimmed, expiresInSeconds === undefined ? null : this.now() + expiresInSeconds * 1000);
    await this.store.createApiKey(record);
    return issued;
  }

  /** Deletes expired keys; answers how many (run periodically by the gateway). */
  sweepExpiredKeys(): Promise<number> {
    return this.store.deleteExpiredApiKeys(this.now());
  }

  /** Revokes one of the caller's keys; it stops working at once. 404 for anyone else's key. */
  async revokeKey(accountId: string, keyId: string): Promise<void> {
    const revoked = await this.store.revokeApiKey(accountId, keyId, this.now());
    if (!revoked) throw gatewayError('TTS_ERR_NOT_FOUND', { what: 'API key' }, { details: [{ field: 'id', reason: 'not found' }] });
    this.keyCache?.forgetKey(keyId);
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
    const existing = await this.store.findAccountByEmail(normalizedEmail);
    if (existing) {
      // A password given for an existing account must be its own: never silently ignored.
      if (password !== undefined && !(await verifyPassword(password, existing.passwordHash))) {
        throw new GatewayError('TTS_ERR_UNAUTHORIZED', `The password does not match account ${existing.email}; leave out the password to issue a key for it anyway`, {
          details: [{ field: 'password', reason: 'mismatch' }],
        });
      }
      const apiKey = await this.createKey(existing.id, keyName);
      return { account: { id: existing.id, email: existing.email }, apiKey, created: false };
    }
    if (password !== undefined) checkPassword(password);
    const account: AccountRecord = {
      id: randomUUID(),
      email: normalizedEmail,
      passwordHash: await hashPassword(password ?? randomBytes(32).toString('base64url'), this.scrypt),
      createdAt: this.now(),
    };
    const { record, issued } = this.newKey(account.id, keyName);
    const result = await this.store.createAccountWithKey(account, record);
    if (result === 'duplicate-email') return this.provisionKey(email, keyName, password);
    return { account: { id: account.id, email: account.email }, apiKey: issued, created: true };
  }

  /** Operator path: the account with this email, or 404. */
  async findAccount(email: string): Promise<PublicAccount> {
    const account = await this.store.findAccountByEmail(normalizeEmail(email));
    if (!account) throw gatewayError('TTS_ERR_NOT_FOUND', { what: 'account with this email' }, { details: [{ field: 'email', reason: 'unknown' }] });
    return { id: account.id, email: account.email };
  }

  /** Throws when the account database cannot be read (readiness check). */
  async checkDatabase(): Promise<void> {
    await this.store.ping();
  }

  /**
   * Queues a usage row for the next batch; resolves once that batch was written (or failed and
   * was reported to `onActivityError`). Callers on the request path need not wait for it.
   */
  recordUsage(accountId: string, keyId: string, usage: UsageInput): Promise<void> {
    return this.activity.record({ accountId, keyId, ...usage, createdAt: this.now() });
  }

  /** Writes the batched activity now; call before closing the store. */
  flushActivity(): Promise<void> {
    return this.activity.flush();
  }

  /** Counts a failed synthesis (a request and an error) in the account's daily usage. */
  async recordFailedUsage(accountId: string, model: string): Promise<void> {
    await this.store.recordFailedUsage({ accountId, model, createdAt: this.now() });
  }

  /** The account's usage over a range of UTC days (default: the last 30), batched rows included. */
  async usageReport(accountId: string, range: UsageRange = {}): Promise<UsageReport> {
    await this.activity.flush();
    return buildUsageReport(this.store, accountId, range, this.now());
  }

  private newKey(accountId: string, name: string, expiresAt: number | null = null): { record: ApiKeyRecord; issued: IssuedApiKey } {
    const minted = mintApiKey();
    const record: ApiKeyRecord = {
      id: randomUUID(),
      accountId,
      name,
      prefix: minted.prefix,
      keyHash: minted.hash,
      createdAt: this.now(),
      lastUsedAt: null,
      revokedAt: null,
      expiresAt,
    };
    return { record, issued: { ...summarize(record), apiKey: minted.value } };
  }

  private decoy(): Promise<string> {
    this.decoyHash ??= hashPassword('decoy password never matches', this.scrypt);
    return this.decoyHash;
  }
}

function normalizeEmail(email: string): string {
  const normalized = typeof email === 'string' ? email.trim().toLowerCase() : '';
  if (normalized.length > MAX_EMAIL_LENGTH || !EMAIL_PATTERN.test(normalized)) {
    throw new GatewayError('TTS_ERR_VALIDATION', 'email must be a valid email address', { details: [{ field: 'email', reason: 'format' }] });
  }
  return normalized;
}

/**
 * Lone UTF-16 surrogates are no text: hashing would turn each into U+FFFD, so passwords that
 * differ only there would be equal. They are refused (400).
 */
const LONE_SURROGATE = /\p{Cs}/u;

function checkWellFormed(password: string): void {
  if (LONE_SURROGATE.test(password)) {
    throw new GatewayError('TTS_ERR_VALIDATION', 'password must be valid Unicode text (it holds a lone surrogate)', {
      details: [{ field: 'password', reason: 'invalid_unicode' }],
    });
  }
}

function checkPassword(password: string): void {
  if (typeof password === 'string') checkWellFormed(password);
  const length = typeof password === 'string' ? [...password].length : 0;
  if (length < MIN_PASSWORD_LENGTH || length > MAX_PASSWORD_LENGTH) {
    throw new GatewayError('TTS_ERR_VALIDATION', `password must be between ${MIN_PASSWORD_LENGTH} and ${MAX_PASSWORD_LENGTH} characters`, {
      details: [{ field: 'password', reason: 'length' }],
    });
  }
}
