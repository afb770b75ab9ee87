import type { AccountRecord, ApiKeyRecord } from './account-store';

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

export function publicAccount(account: AccountRecord): PublicAccount {
  return { id: account.id, email: account.email };
}

export function summarizeKey(key: ApiKeyRecord): ApiKeySummary {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt,
    expiresAt: key.expiresAt ?? null,
  };
}
