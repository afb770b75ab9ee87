import type pg from 'pg';
import type {
  AccountActivity,
  AccountLimits,
  AccountLimitsUpdate,
  AccountRecord,
  AccountStore,
  ApiKeyRecord,
  CappedKeyResult,
  CreateAccountResult,
  DailyUsageRecord,
  KeyCap,
  UsageRecord,
} from './account-store';
import { dailyAdditions } from './daily-additions';
import type { Migration } from './migrations';
import { PostgresActivityWriters } from './postgres-activity-writers';
import { postgresFailure } from './postgres-failure';
import { migrateOnOwnConnection } from './postgres-migrate';
import { POSTGRES_MIGRATIONS } from './postgres-migrations';
import { PostgresDeadline } from './postgres-deadline';
import { createApiKeyWithinCap } from './postgres-key-cap';
import { createPostgresPool, STALLED_SERVER_MARGIN_MS, type PostgresPoolOptions } from './postgres-pool';
import { inTransaction, queryWithin } from './postgres-transaction';
import { addDaily, charactersByKey, getAccountLimits, insertUsageRows, listDailyUsage, setAccountLimits, type PostgresQuery } from './postgres-usage-and-limits';
import { compareText } from '../objects/compare-text';

interface AccountRow {
  id: string;
  email: string;
  password_hash: string;
  created_at: number;
}

interface ApiKeyRow {
  id: string;
  account_id: string;
  name: string;
  prefix: string;
  key_hash: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
  expires_at: number | null;
  made_by_login: boolean;
}

interface UsageRow {
  account_id: string;
  key_id: string;
  model: string;
  characters: number;
  bytes: number;
  created_at: number;
}

const toAccount = (row: AccountRow): AccountRecord => ({ id: row.id, email: row.email, passwordHash: row.password_hash, createdAt: row.created_at });

const toApiKey = (row: ApiKeyRow): ApiKeyRecord => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  prefix: row.prefix,
  keyHash: row.key_hash,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  revokedAt: row.revoked_at,
  expiresAt: row.expires_at,
  madeByLogin: row.made_by_login,
});

const KEY_COLUMNS = 'id, account_id, name, prefix, key_hash, created_at, last_used_at, revoked_at, expires_at, made_by_login';

/** 23505 unique_violation on the accounts' email constraint. */
function isDuplicateEmail(error: unknown): boolean {
  const failure = error as { code?: string; constraint?: string };
  return failure?.code === '23505' && failure.constraint === 'accounts_email_key';
}

/**
 * A request's statement (a login, a key lookup, the batch writer's) runs this long at most by
 * default, lock waits included: well inside a synthesis's deadline (`synthesis.timeout`, 60 s)
 * and the time a client has to send a request (`server.requestTimeout`, 30 s), and far beyond
 * what any of them takes (a 100,000-row usage batch, the largest, about a second).
 */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5_000;

export interface PostgresAccountStoreOptions extends PostgresPoolOptions {
  readonly migrations?: readonly Migration[];
}

/**
 * AccountStore on PostgreSQL through a pg pool, for several replicas sharing one database. The
 * schema is migrated on open (under an advisory lock); every call waits for that first. Every
 * statement has a time limit (`statementTimeoutMs`): one that waits past it for a lock, or for
 * a server that stopped answering, fails with 503 TTS_ERR_UNAVAILABLE instead of holding its
 * request. Migrations run on a connection of their own, without that limit.
 */
export class PostgresAccountStore implements AccountStore {
  private readonly pool: pg.Pool;
  private readonly migrated: Promise<number[]>;
  private readonly statementTimeoutMs: number;
  private readonly writers = new PostgresActivityWriters();

  constructor(url: string, options: PostgresAccountStoreOptions = {}) {
    this.statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
    this.pool = createPostgresPool(url, { ...options, statementTimeoutMs: this.statementTimeoutMs });
    this.migrated = migrateOnOwnConnection(url, options.migrations ?? POSTGRES_MIGRATIONS, options.onError);
    // Callers see the failure through ready() or their own call; never as an unhandled rejection.
    this.migrated.catch(() => undefined);
  }

  /** Resolves once the schema is up to date; rejects with the migration's failure. */
  async ready(): Promise<void> {
    await this.migrated;
  }

  /** Versions of the applied migrations, in order. */
  appliedMigrations(): Promise<number[]> {
    return this.migrated;
  }

  private readonly query: PostgresQuery = async <Row extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<Row>> => {
    await this.migrated;
    return queryWithin<Row>(this.pool, this.deadline(), text, values, (error) => this.failure(error));
  };

  /**
   * A call's end: the statement limit and the margin a silent server gets, counted from the call's
   * start, so that the wait for a connection (a server that accepts and never answers: pg's own
   * limit was 10 s) cannot hold a request past it.
   */
  private deadline(): PostgresDeadline {
    return new PostgresDeadline(this.statementTimeoutMs + STALLED_SERVER_MARGIN_MS);
  }

  /** What a failed statement tells the caller: out of time or out of reach, 503; anything else as it is. */
  private failure(error: unknown): unknown {
    return postgresFailure(error, this.statementTimeoutMs);
  }

  /** Runs `work` in one transaction on one connection, within `deadline` if given (see inTransaction for its failures). */
  private async transaction<Result>(work: (query: PostgresQuery) => Promise<Result>, deadline?: PostgresDeadline): Promise<Result> {
    await this.migrated;
    return inTransaction(this.pool, deadline, work, (error) => this.failure(error));
  }

  async createAccountWithKey(account: AccountRecord, key: ApiKeyRecord): Promise<CreateAccountResult> {
    try {
      return await this.transaction(async (query): Promise<CreateAccountResult> => {
        await query('INSERT INTO accounts (id, email, password_hash, created_at) VALUES ($1, $2, $3, $4)', [account.id, account.email, account.passwordHash, account.createdAt]);
        await insertKey(query, key);
        return 'created';
      }, this.deadline());
    } catch (error) {
      if (isDuplicateEmail(error)) return 'duplicate-email';
      throw error;
    }
  }

  async findAccountByEmail(email: string): Promise<AccountRecord | undefined> {
    const { rows } = await this.query<AccountRow>('SELECT id, email, password_hash, created_at FROM accounts WHERE email = $1', [email]);
    return rows[0] && toAccount(rows[0]);
  }

  async findAccountById(id: string): Promise<AccountRecord | undefined> {
    const { rows } = await this.query<AccountRow>('SELECT id, email, password_hash, created_at FROM accounts WHERE id = $1', [id]);
    return rows[0] && toAccount(rows[0]);
  }

  async createApiKey(key: ApiKeyRecord): Promise<void> {
    await insertKey(this.query, key);
  }

  createApiKeyWithinCap(key: ApiKeyRecord, cap: KeyCap): Promise<CappedKeyResult> {
    return this.transaction((query) => createApiKeyWithinCap(query, key, cap, (record) => insertKey(query, record)), this.deadline());
  }

  async findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const { rows } = await this.query<ApiKeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_hash = $1`, [keyHash]);
    return rows[0] && toApiKey(rows[0]);
  }

  async listApiKeys(accountId: string): Promise<readonly ApiKeyRecord[]> {
    const { rows } = await this.query<ApiKeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE account_id = $1 ORDER BY created_at, position`, [accountId]);
    return rows.map(toApiKey);
  }

  async revokeApiKey(accountId: string, keyId: string, revokedAt: number): Promise<boolean> {
    // An expired key is no live key: it answers as the sweep leaves it, gone (see AccountStore).
    const result = await this.query(
      'UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND account_id = $3 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $1)',
      [revokedAt, keyId, accountId],
    );
    return result.rowCount === 1;
  }

  async touchApiKey(keyId: string, usedAt: number): Promise<void> {
    await this.query('UPDATE api_keys SET last_used_at = $1 WHERE id = $2', [usedAt, keyId]);
  }

  async deleteExpiredApiKeys(now: number): Promise<number> {
    const result = await this.query('DELETE FROM api_keys WHERE expires_at IS NOT NULL AND expires_at <= $1', [now]);
    return result.rowCount ?? 0;
  }

  async recordActivity(activity: AccountActivity): Promise<void> {
    // No deadline for the whole batch, which no request waits for: one grown by an outage (a
    // statement per key used) may take longer than one statement may, and must still go through.
    await this.transaction(async (query) => {
      // In key order: replicas that write the same keys at once lock them in the same order (in
      // the order of their requests, two batches deadlocked and one was thrown back).
      for (const [keyId, usedAt] of [...activity.touches].sort(([left], [right]) => compareText(left, right))) {
        // Another replica may have written a newer use: a use never moves back.
        await query('UPDATE api_keys SET last_used_at = $1 WHERE id = $2 AND (last_used_at IS NULL OR last_used_at < $1)', [usedAt, keyId]);
      }
      // Parts an earlier write of this writer committed are left out (its answer may have been lost).
      const { usage, failures } = await this.writers.rowsToWrite(query, activity);
      // Two round trips for the whole batch, however many rows (it was two a row).
      await insertUsageRows(query, usage);
      await addDaily(query, dailyAdditions(usage, failures).sort((left, right) => compareText(left.accountId, right.accountId) || compareText(left.day, right.day) || compareText(left.model, right.model)));
    });
    this.writers.pruneNow(this.query);
  }

  listDailyUsage(accountId: string, fromDay: string, toDay: string): Promise<readonly DailyUsageRecord[]> {
    return listDailyUsage(this.query, accountId, fromDay, toDay);
  }

  charactersByKey(accountId: string, fromMs: number, toMs: number): Promise<ReadonlyMap<string, number>> {
    return charactersByKey(this.query, accountId, fromMs, toMs);
  }

  getAccountLimits(accountId: string): Promise<AccountLimits> {
    return getAccountLimits(this.query, accountId);
  }

  setAccountLimits(accountId: string, limits: AccountLimitsUpdate): Promise<boolean> {
    return setAccountLimits(this.query, accountId, limits);
  }

  async listUsage(accountId: string): Promise<readonly UsageRecord[]> {
    const { rows } = await this.query<UsageRow>('SELECT account_id, key_id, model, characters, bytes, created_at FROM usage_records WHERE account_id = $1 ORDER BY created_at, id', [accountId]);
    return rows.map((row) => ({ accountId: row.account_id, keyId: row.key_id, model: row.model, characters: row.characters, bytes: row.bytes, createdAt: row.created_at }));
  }

  async ping(): Promise<void> {
    await this.query('SELECT 1', []);
  }

  async close(): Promise<void> {
    await this.migrated.catch(() => undefined);
    if (!this.pool.ended) await this.pool.end();
  }
}

/** The login marker is written only when set: its column defaults to false, and a store on older migrations (tests of upgrades) lacks it. */
function insertKey(query: PostgresQuery, key: ApiKeyRecord): Promise<unknown> {
  const values = [key.id, key.accountId, key.name, key.prefix, key.keyHash, key.createdAt, key.lastUsedAt, key.revokedAt, key.expiresAt ?? null];
  const marker = key.madeByLogin ? [', made_by_login', ', TRUE'] : ['', ''];
  return query(`INSERT INTO api_keys (id, account_id, name, prefix, key_hash, created_at, last_used_at, revoked_at, expires_at${marker[0]}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9${marker[1]})`, values);
}
