import { randomBytes, randomUUID } from 'node:crypto';
import { GatewayError } from '../errors';
import type { AccountRecord, AccountStore, ApiKeyRecord } from './account-store';
import { hashesEqual, hashApiKey, looksLikeApiKey, mintApiKey } from './api-key';
import { ApiKeyCache } from './api-key-cache';
import type { KeyRevocations } from './key-revocations';
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
}

export interface AccountServiceOptions {
  readonly registration: 'open' | 'closed';
  /** Lower only in tests; stored hashes carry their own parameters. */
  readonly scrypt?: ScryptParameters;
  readonly now?: () => number;
  /** Caches key lookups for this long, in milliseconds (replicas); absent = every request reads the store. */
  readonly keyCacheTtlMs?: number;
  /** Revocations shared with the other replicas, which drop the key from their caches. */
  readonly revocations?: KeyRevocations;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const MAX_EMAIL_LENGTH = 254;
const MIN_PASSWORD_LENGTH = 8;
const MAX_PASSWORD_LENGTH = 1024;
const MAX_KEY_NAME_LENGTH = 100;
const BAD_CREDENTIALS = 'Invalid email or password';
const BAD_KEY = 'A valid X-API-Key header is required';

const summarize = (key: ApiKeyRecord): ApiKeySummary => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  createdAt: key.createdAt,
  lastUsedAt: key.lastUsedAt,
});

/** Registration, login and API keys. All failures are GatewayErrors safe to show a client. */
export class AccountService {
  private readonly now: () => number;
  private readonly scrypt: ScryptParameters;
  /** Verified against when the email is unknown, so both failures take the same time. */
  private decoyHash: Promise<string> | undefined;
  private readonly keyCache: ApiKeyCache | undefined;

  constructor(
    private readonly store: AccountStore,
    private readonly options: AccountServiceOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.scrypt = options.scrypt ?? DEFAULT_SCRYPT_PARAMETERS;
    const cache = options.keyCacheTtlMs !== undefined ? new ApiKeyCache({ ttlMs: options.keyCacheTtlMs }) : undefined;
    this.keyCache = cache;
    if (cache) options.revocations?.listen({ onRevoked: (keyId) => cache.forgetKey(keyId), onMissed: () => cache.clear() });
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
    const account = normalizedEmail ? await this.store.findAccountByEmail(normalizedEmail) : undefined;
    const matches = await verifyPassword(candidate, account?.passwordHash ?? (await this.decoy()));
    if (!account || !matches) throw new GatewayError('TTS_ERR_UNAUTHORIZED', BAD_CREDENTIALS);
    const { record, issued } = this.newKey(account.id, 'login');
    await this.store.createApiKey(record);
    return { account: { id: account.id, email: account.email }, apiKey: issued };
  }

  /** Resolves an X-API-Key value to its account; 401 when missing, unknown or revoked. */
  async authenticate(apiKey: string | undefined): Promise<AuthenticatedKey> {
    if (typeof apiKey !== 'string' || !looksLikeApiKey(apiKey)) throw new GatewayError('TTS_ERR_UNAUTHORIZED', BAD_KEY);
    const keyHash = hashApiKey(apiKey);
    const { key, account } = this.keyCache?.get(keyHash) ?? (await this.lookUpKey(keyHash));
    await this.store.touchApiKey(key.id, this.now());
    return { account: { id: account.id, email: account.email }, keyId: key.id };
  }

  /** Reads a live key and its account from the store (and caches them); 401 otherwise. */
  private async lookUpKey(keyHash: string): Promise<{ key: ApiKeyRecord; account: AccountRecord }> {
    const key = await this.store.findApiKeyByHash(keyHash);
    if (!key || key.revokedAt !== null || !hashesEqual(key.keyHash, keyHash)) {
      throw new GatewayError('TTS_ERR_UNAUTHORIZED', BAD_KEY);
    }
    const account = await this.store.findAccountById(key.accountId);
    if (!account) throw new GatewayError('TTS_ERR_UNAUTHORIZED', BAD_KEY);
    this.keyCache?.set(keyHash, { key, account });
    return { key, account };
  }

  /** Live keys of an account. */
  async listKeys(accountId: string): Promise<ApiKeySummary[]> {
    const keys = await this.store.listApiKeys(accountId);
    return keys.filter((key) => key.revokedAt === null).map(summarize);
  }

  async createKey(accountId: string, name: string): Promise<IssuedApiKey> {
    const trimmed = typeof name === 'string' ? name.trim() : '';
    if (trimmed.length === 0 || [...trimmed].length > MAX_KEY_NAME_LENGTH) {
      throw new GatewayError('TTS_ERR_VALIDATION', `name must be between 1 and ${MAX_KEY_NAME_LENGTH} characters`, {
        details: [{ field: 'name', reason: 'length' }],
      });
    }
    const { record, issued } = this.newKey(accountId, trimmed);
    await this.store.createApiKey(record);
    return issued;
  }

  /** Revokes one of the caller's keys; it stops working at once. 404 for anyone else's key. */
  async revokeKey(accountId: string, keyId: string): Promise<void> {
    const revoked = await this.store.revokeApiKey(accountId, keyId, this.now());
    if (!revoked) throw new GatewayError('TTS_ERR_NOT_FOUND', 'No such API key', { details: [{ field: 'id', reason: 'not found' }] });
    this.keyCache?.forgetKey(keyId);
    await this.options.revocations?.announce(keyId);
  }

  /**
   * Operator path (the CLI), for config-driven deployments with registration closed: issues a
   * named key for the account with this email, creating the account when it does not exist.
   * Without a password the account cannot log in; its keys are managed by the operator.
   */
  async provisionKey(email: string, keyName: string, password?: string): Promise<{ account: PublicAccount; apiKey: IssuedApiKey; created: boolean }> {
    const normalizedEmail = normalizeEmail(email);
    const existing = await this.store.findAccountByEmail(normalizedEmail);
    if (existing) {
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
    if (!account) throw new GatewayError('TTS_ERR_NOT_FOUND', 'No account with this email', { details: [{ field: 'email', reason: 'unknown' }] });
    return { id: account.id, email: account.email };
  }

  async recordUsage(accountId: string, keyId: string, usage: UsageInput): Promise<void> {
    await this.store.recordUsage({ accountId, keyId, ...usage, createdAt: this.now() });
  }

  private newKey(accountId: string, name: string): { record: ApiKeyRecord; issued: IssuedApiKey } {
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

function checkPassword(password: string): void {
  const length = typeof password === 'string' ? [...password].length : 0;
  if (length < MIN_PASSWORD_LENGTH || length > MAX_PASSWORD_LENGTH) {
    throw new GatewayError('TTS_ERR_VALIDATION', `password must be between ${MIN_PASSWORD_LENGTH} and ${MAX_PASSWORD_LENGTH} characters`, {
      details: [{ field: 'password', reason: 'length' }],
    });
  }
}
