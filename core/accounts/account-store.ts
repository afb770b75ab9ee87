/** One account as stored. `passwordHash` is a self-describing scrypt string, never the password. */
export interface AccountRecord {
  readonly id: string;
  /** Lower-cased, trimmed; unique. */
  readonly email: string;
  readonly passwordHash: string;
  /** Unix milliseconds. */
  readonly createdAt: number;
}

/** One API key as stored: only its SHA-256 hash and a short display prefix, never the key. */
export interface ApiKeyRecord {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  /** The first characters of the key, safe to show so that a user can tell keys apart. */
  readonly prefix: string;
  /** Hex SHA-256 of the whole key; unique. */
  readonly keyHash: string;
  readonly createdAt: number;
  readonly lastUsedAt: number | null;
  readonly revokedAt: number | null;
  /** When the key stops working (Unix milliseconds); null = never. Absent in records written before expiry existed. */
  readonly expiresAt?: number | null;
  /** Made by a login: the key a login at the account's key cap may revoke to make room (absent = false). */
  readonly madeByLogin?: boolean;
}

/** One billable synthesis. */
export interface UsageRecord {
  readonly accountId: string;
  readonly keyId: string;
  readonly model: string;
  /** Input length in Unicode code points. */
  readonly characters: number;
  /** Size of the produced audio file. */
  readonly bytes: number;
  readonly createdAt: number;
  /** Length of the produced audio, when known; counted in the daily usage. */
  readonly audioSeconds?: number;
  /** Served from the result cache (no provider call). */
  readonly cacheHit?: boolean;
}

/** A synthesis that failed, counted in the daily usage as a request and an error. */
export interface FailedUsageRecord {
  readonly accountId: string;
  readonly model: string;
  readonly createdAt: number;
  /** False for the client's own mistake or a cancellation: a request, not an error. Default true. */
  readonly error?: boolean;
}

/** One account's usage of one model on one UTC day. */
export interface DailyUsageRecord {
  /** `YYYY-MM-DD`, UTC. */
  readonly day: string;
  readonly model: string;
  /** Synthesis requests answered, successful or not. */
  readonly requests: number;
  /** Characters (code points) of the successful ones. */
  readonly characters: number;
  readonly audioSeconds: number;
  readonly cacheHits: number;
  readonly errors: number;
}

/** An account's own limits, overriding the config's defaults; absent = the default. */
export interface AccountLimits {
  readonly requestsPerMinute?: number;
  readonly charactersPerDay?: number;
}

/** A change of an account's limits: a number sets, null clears (back to the default), absent keeps. */
export interface AccountLimitsUpdate {
  readonly requestsPerMinute?: number | null;
  readonly charactersPerDay?: number | null;
}

/** Consecutive rows of a batch first sent together: the next `usage` usage rows and `failures` failures. */
export interface ActivityPart {
  /** Numbered 1, 2, 3, ... by its writer, in the order they were first sent. */
  readonly number: number;
  readonly usage: number;
  readonly failures: number;
}

/**
 * Who sends a batch, and its rows' parts in order. A write whose COMMIT went through while its
 * sender heard a failure (the answer lost) is sent again with what came since: the store skips
 * the parts it already holds, so that no row is counted twice.
 */
export interface ActivitySender {
  /** Random, one per writer (process). */
  readonly writerId: string;
  /** Cover `usage` and `failures` from their first row, in order. */
  readonly parts: readonly ActivityPart[];
}

/** What requests left behind, written together: each key's newest use (key id -> Unix ms), usage rows and failed syntheses. */
export interface AccountActivity {
  readonly touches: ReadonlyMap<string, number>;
  readonly usage: readonly UsageRecord[];
  readonly failures: readonly FailedUsageRecord[];
  /** Absent: the rows are written without that check (a caller that never sends a batch twice). */
  readonly sender?: ActivitySender;
}

/** The most live keys an account may hold when a key is made, and whether login keys may make room. */
export interface KeyCap {
  readonly maxLiveKeys: number;
  /** Revoke the account's oldest live login keys, as many as needed, rather than refuse. */
  readonly evictLoginKeys: boolean;
  /** Keys expired at this time are not live (Unix ms); also the revocation time of evicted keys. */
  readonly now: number;
}

/** Result of making a key under a cap: made (and the ids of login keys revoked for it), or refused. */
export type CappedKeyResult =
  | { readonly outcome: 'created'; readonly evictedKeyIds: readonly string[] }
  | { readonly outcome: 'at-cap'; readonly liveKeys: number };

/** Result of inserting an account: a unique-email clash is an expected outcome, not a crash. */
export type CreateAccountResult = 'created' | 'duplicate-email';

/**
 * Persistence of accounts, API keys and usage. Every method returns a Promise so that a
 * network database (PostgreSQL) can implement the same interface without touching callers.
 * Implementations hold no business rules: hashing, validation and errors live in AccountService.
 */
export interface AccountStore {
  findAccountByEmail(email: string): Promise<AccountRecord | undefined>;
  findAccountById(id: string): Promise<AccountRecord | undefined>;
  /** Inserts an account with its first key, atomically; `duplicate-email` when the email is taken (race-safe). */
  createAccountWithKey(account: AccountRecord, key: ApiKeyRecord): Promise<CreateAccountResult>;
  createApiKey(key: ApiKeyRecord): Promise<void>;
  /**
   * Inserts a key unless its account would then hold more than `cap.maxLiveKeys` live keys; with
   * `cap.evictLoginKeys`, the oldest live login keys are revoked to make room when there are enough
   * of them. Counting, revoking and inserting are one transaction, serialized per account.
   */
  createApiKeyWithinCap(key: ApiKeyRecord, cap: KeyCap): Promise<CappedKeyResult>;
  /** Finds a key by the hash of its value, revoked or not. */
  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  /** All keys of an account (revoked ones included), oldest first. */
  listApiKeys(accountId: string): Promise<readonly ApiKeyRecord[]>;
  /**
   * Revokes a live key of that account; false when there is no such live key: unknown, another
   * account's, revoked already, or expired at `revokedAt` (so an expired key answers the same
   * before and after the sweep deletes it).
   */
  revokeApiKey(accountId: string, keyId: string, revokedAt: number): Promise<boolean>;
  touchApiKey(keyId: string, usedAt: number): Promise<void>;
  /** Deletes keys whose expiry is at or before `now`; answers how many. */
  deleteExpiredApiKeys(now: number): Promise<number>;
  /**
   * Writes a batch at once, in one transaction: each key's newest use (a use never moves back),
   * usage rows, each a request (with its characters, seconds and cache hit) in its account's daily
   * usage, and failed syntheses, each a request and an error there. The only way usage is written.
   * With a sender, the parts this writer's earlier writes committed are left out (see ActivitySender).
   */
  recordActivity(activity: AccountActivity): Promise<void>;
  /**
   * A value that changes whenever another process (the CLI, a replica) commits to the store,
   * so that in-memory copies know when to reread; absent when the store cannot tell. A read of
   * the database like any other: it can meet a lock or a damaged file, and fails as they do.
   */
  changeMarker?(): Promise<number>;
  /** Usage of an account, oldest first. */
  listUsage(accountId: string): Promise<readonly UsageRecord[]>;
  /** Daily usage of an account from `fromDay` to `toDay` (`YYYY-MM-DD`, inclusive), by day then model. */
  listDailyUsage(accountId: string, fromDay: string, toDay: string): Promise<readonly DailyUsageRecord[]>;
  /** Characters of the account's usage rows made from `fromMs` (inclusive) to `toMs` (exclusive), per key id; keys with none are absent. */
  charactersByKey(accountId: string, fromMs: number, toMs: number): Promise<ReadonlyMap<string, number>>;
  /** The account's limit overrides ({} for none or an unknown account). */
  getAccountLimits(accountId: string): Promise<AccountLimits>;
  /** False when there is no such account. */
  setAccountLimits(accountId: string, limits: AccountLimitsUpdate): Promise<boolean>;
  /** Throws when the database cannot be read (readiness check). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
