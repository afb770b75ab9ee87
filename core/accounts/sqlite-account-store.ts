import Database from 'better-sqlite3';
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
import { SQLITE_MIGRATIONS, type Migration } from './migrations';
import { SqliteAccountLimits } from './sqlite-account-limits';
import { SqliteActivityWriters } from './sqlite-activity-writers';
import { SqliteDailyUsage } from './sqlite-daily-usage';
import { SqliteKeyCap } from './sqlite-key-cap';
import { sqliteFailure } from './sqlite-failure';
import { readFirstPages } from './sqlite-first-pages';
import { retryWhileLocked } from './sqlite-lock-retry';

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
  expires_at?: number | null;
  made_by_login?: number;
}

interface UsageRow {
  account_id: string;
  key_id: string;
  model: string;
  characters: number;
  bytes: number;
  created_at: number;
}

const toAccount = (row: AccountRow): AccountRecord => ({
  id: row.id,
  email: row.email,
  passwordHash: row.password_hash,
  createdAt: row.created_at,
});

const toApiKey = (row: ApiKeyRow): ApiKeyRecord => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  prefix: row.prefix,
  keyHash: row.key_hash,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  revokedAt: row.revoked_at,
  expiresAt: row.expires_at ?? null,
  madeByLogin: row.made_by_login === 1,
});

/** How long a statement waits for another connection's lock by default (`database.statementTimeout`). */
const DEFAULT_BUSY_TIMEOUT_MS = 5_000;

export interface SqliteAccountStoreOptions {
  /**
   * How long a statement waits for another connection's lock, then fails with 503. The statement
   * is tried again between pauses (sqlite-lock-retry.ts), so the process goes on meanwhile.
   * Migrations at the start wait at least the default, in SQLite's own (synchronous) busy wait.
   */
  readonly busyTimeoutMs?: number;
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && (error as Error & { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/**
 * AccountStore on SQLite (better-sqlite3). Calls are synchronous underneath and wrapped in
 * Promises so the interface fits a network database too. `filename` is a path or `:memory:`.
 */
export class SqliteAccountStore implements AccountStore {
  private readonly database: Database.Database;
  private readonly dailyUsage: SqliteDailyUsage;
  private readonly limits: SqliteAccountLimits;
  /** Prepared at the first use: a store opened on older migrations (tests of upgrades) has no login marker. */
  private keyCap?: SqliteKeyCap;
  /** Prepared once: the data-version check runs on every authenticated request. */
  private readonly dataVersion: Database.Statement;
  /** Prepared once, at the first use: every batch of activity runs it for each request it carries. */
  private preparedUsageRecord?: Database.Statement;
  private readonly writeActivity: (activity: AccountActivity) => void;
  private readonly busyTimeoutMs: number;

  constructor(filename: string, migrations: readonly Migration[] = SQLITE_MIGRATIONS, options: SqliteAccountStoreOptions = {}) {
    this.busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    this.database = new Database(filename);
    if (filename !== ':memory:') this.database.pragma('journal_mode = WAL');
    this.database.pragma('foreign_keys = ON');
    // A start while the CLI writes waits as it always did; requests then get the configured limit.
    this.database.pragma(`busy_timeout = ${Math.max(this.busyTimeoutMs, DEFAULT_BUSY_TIMEOUT_MS)}`);
    this.migrate(migrations);
    // No synchronous wait from now on: SQLite's busy wait sleeps the whole process (every request
    // and stream). A statement a lock stops is tried again after a pause instead (guarded).
    this.database.pragma('busy_timeout = 0');
    this.dailyUsage = new SqliteDailyUsage(this.database);
    this.limits = new SqliteAccountLimits(this.database);
    this.dataVersion = this.database.prepare('PRAGMA data_version').pluck();
    // A batch may carry an older use than one already written (another process): keep the newest.
    const touchKey = this.database.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)');
    const writers = new SqliteActivityWriters(this.database);
    this.writeActivity = this.database.transaction((activity: AccountActivity) => {
      for (const [keyId, usedAt] of activity.touches) touchKey.run(usedAt, keyId, usedAt);
      const { usage, failures } = writers.rowsToWrite(activity);
      for (const row of usage) this.insertUsage(row);
      this.dailyUsage.addAll(dailyAdditions(usage, failures));
    });
  }

  /** Versions of the applied migrations, in order. */
  appliedMigrations(): number[] {
    const rows = this.database.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[];
    return rows.map((row) => row.version);
  }

  private migrate(migrations: readonly Migration[]): void {
    this.database.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
    );
    const applied = new Set(this.appliedMigrations());
    const record = this.database.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    const isApplied = this.database.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').pluck();
    for (const migration of [...migrations].sort((left, right) => left.version - right.version)) {
      if (applied.has(migration.version)) continue;
      // Under the write lock, looked at again: another process (the CLI started with the gateway)
      // may have applied it since, and running it twice fails (a table that already exists).
      this.database.transaction(() => {
        if (isApplied.get(migration.version) !== undefined) return;
        this.database.exec(migration.sql);
        record.run(migration.version, migration.name, Date.now());
      }).immediate();
    }
  }

  async createAccountWithKey(account: AccountRecord, key: ApiKeyRecord): Promise<CreateAccountResult> {
    const insert = this.database.transaction(() => {
      this.database
        .prepare('INSERT INTO accounts (id, email, password_hash, created_at) VALUES (?, ?, ?, ?)')
        .run(account.id, account.email, account.passwordHash, account.createdAt);
      this.insertKey(key);
    });
    try {
      await retryWhileLocked(insert, this.busyTimeoutMs);
      return 'created';
    } catch (error) {
      if (isUniqueViolation(error)) return 'duplicate-email';
      throw this.failure(error);
    }
  }

  async findAccountByEmail(email: string): Promise<AccountRecord | undefined> {
    const row = await this.guarded(() => this.database.prepare('SELECT * FROM accounts WHERE email = ?').get(email) as AccountRow | undefined);
    return row && toAccount(row);
  }

  async findAccountById(id: string): Promise<AccountRecord | undefined> {
    const row = await this.guarded(() => this.database.prepare('SELECT * FROM accounts WHERE id = ?').get(id) as AccountRow | undefined);
    return row && toAccount(row);
  }

  async createApiKey(key: ApiKeyRecord): Promise<void> {
    await this.guarded(() => this.insertKey(key));
  }

  async createApiKeyWithinCap(key: ApiKeyRecord, cap: KeyCap): Promise<CappedKeyResult> {
    this.keyCap ??= new SqliteKeyCap(this.database, (record) => this.insertKey(record));
    return await this.guarded(() => this.keyCap!.createWithinCap(key, cap));
  }

  private insertKey(key: ApiKeyRecord): void {
    // The marker is written only when set: its column defaults to 0, and a store on older migrations (tests of upgrades) lacks it.
    const marker = key.madeByLogin ? [', made_by_login', ', 1'] : ['', ''];
    this.database
      .prepare(
        `INSERT INTO api_keys (id, account_id, name, prefix, key_hash, created_at, last_used_at, revoked_at, expires_at${marker[0]}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?${marker[1]})`,
      )
      .run(key.id, key.accountId, key.name, key.prefix, key.keyHash, key.createdAt, key.lastUsedAt, key.revokedAt, key.expiresAt ?? null);
  }

  async findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.guarded(() => this.database.prepare('SELECT * FROM api_keys WHERE key_hash = ?').get(keyHash) as ApiKeyRow | undefined);
    return row && toApiKey(row);
  }

  async listApiKeys(accountId: string): Promise<readonly ApiKeyRecord[]> {
    const rows = await this.guarded(() => this.database.prepare('SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at, rowid').all(accountId) as ApiKeyRow[]);
    return rows.map(toApiKey);
  }

  async revokeApiKey(accountId: string, keyId: string, revokedAt: number): Promise<boolean> {
    const result = await this.guarded(() =>
      // An expired key is no live key: it answers as the sweep leaves it, gone (see AccountStore).
      this.database
        .prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)')
        .run(revokedAt, keyId, accountId, revokedAt),
    );
    return result.changes === 1;
  }

  async touchApiKey(keyId: string, usedAt: number): Promise<void> {
    await this.guarded(() => this.database.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(usedAt, keyId));
  }

  async deleteExpiredApiKeys(now: number): Promise<number> {
    return await this.guarded(() => this.database.prepare('DELETE FROM api_keys WHERE expires_at IS NOT NULL AND expires_at <= ?').run(now).changes);
  }

  async recordActivity(activity: AccountActivity): Promise<void> {
    await this.guarded(() => this.writeActivity(activity));
  }

  /**
   * SQLite's `data_version`: it changes when another connection commits, never for this one's own
   * writes. It opens a read like any statement (SQLITE_BUSY_RECOVERY while another process
   * recovers the WAL, SQLITE_NOTADB on a damaged header), so it is retried and mapped as they are.
   */
  async changeMarker(): Promise<number> {
    return await this.guarded(() => this.dataVersion.get() as number);
  }

  private insertUsage(usage: UsageRecord): void {
    // A row of an account deleted since is left out: refused, it would fail the whole batch at every retry.
    this.preparedUsageRecord ??= this.database.prepare(
      'INSERT INTO usage_records (account_id, key_id, model, characters, bytes, created_at) SELECT ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM accounts WHERE id = ?)',
    );
    this.preparedUsageRecord.run(usage.accountId, usage.keyId, usage.model, usage.characters, usage.bytes, usage.createdAt, usage.accountId);
  }

  async listDailyUsage(accountId: string, fromDay: string, toDay: string): Promise<readonly DailyUsageRecord[]> {
    return await this.guarded(() => this.dailyUsage.list(accountId, fromDay, toDay));
  }

  async charactersByKey(accountId: string, fromMs: number, toMs: number): Promise<ReadonlyMap<string, number>> {
    const rows = await this.guarded(
      () =>
        this.database
          .prepare('SELECT key_id, SUM(characters) AS characters FROM usage_records WHERE account_id = ? AND created_at >= ? AND created_at < ? GROUP BY key_id')
          .all(accountId, fromMs, toMs) as { key_id: string; characters: number }[],
    );
    return new Map(rows.map((row) => [row.key_id, row.characters]));
  }

  async getAccountLimits(accountId: string): Promise<AccountLimits> {
    return await this.guarded(() => this.limits.get(accountId));
  }

  async setAccountLimits(accountId: string, limits: AccountLimitsUpdate): Promise<boolean> {
    return await this.guarded(() => this.limits.set(accountId, limits));
  }

  async listUsage(accountId: string): Promise<readonly UsageRecord[]> {
    const rows = await this.guarded(() => this.database.prepare('SELECT * FROM usage_records WHERE account_id = ? ORDER BY created_at, id').all(accountId) as UsageRow[]);
    return rows.map((row) => ({
      accountId: row.account_id,
      keyId: row.key_id,
      model: row.model,
      characters: row.characters,
      bytes: row.bytes,
      createdAt: row.created_at,
    }));
  }

  async ping(): Promise<void> {
    await this.guarded(() => readFirstPages(this.database));
  }

  /**
   * Runs a statement, again after a pause while another connection's lock stops it; a lock held
   * past the busy timeout, a full disk or an unusable file is a 503 (sqlite-failure.ts), anything else passes.
   */
  private async guarded<Value>(statement: () => Value): Promise<Value> {
    try {
      return await retryWhileLocked(statement, this.busyTimeoutMs);
    } catch (error) {
      throw this.failure(error);
    }
  }

  private failure(error: unknown): unknown {
    return sqliteFailure(error, this.busyTimeoutMs);
  }

  async close(): Promise<void> {
    if (this.database.open) this.database.close();
  }
}
