import type Database from 'better-sqlite3';
import type { ApiKeyRecord, CappedKeyResult, KeyCap } from './account-store';

/** A key neither revoked nor expired at the cap's `now`. */
const LIVE = 'revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)';

/**
 * Makes a key under the account's key cap in one IMMEDIATE transaction: the write lock is taken
 * before counting, so that another process (the CLI, a second gateway on the file) cannot count
 * the same keys and insert past the cap meanwhile.
 */
export class SqliteKeyCap {
  private readonly countLive: Database.Statement;
  private readonly oldestLoginKeys: Database.Statement;
  private readonly revoke: Database.Statement;
  private readonly run: (key: ApiKeyRecord, cap: KeyCap) => CappedKeyResult;

  constructor(database: Database.Database, insertKey: (key: ApiKeyRecord) => void) {
    this.countLive = database.prepare(`SELECT COUNT(*) FROM api_keys WHERE account_id = ? AND ${LIVE}`).pluck();
    this.oldestLoginKeys = database.prepare(`SELECT id FROM api_keys WHERE account_id = ? AND made_by_login = 1 AND ${LIVE} ORDER BY created_at, rowid LIMIT ?`).pluck();
    this.revoke = database.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?');
    const transaction = database.transaction((key: ApiKeyRecord, cap: KeyCap): CappedKeyResult => {
      const liveKeys = this.countLive.get(key.accountId, cap.now) as number;
      // A cap lowered in the config may leave more live keys than it allows: make room for all of them.
      const excess = liveKeys - cap.maxLiveKeys + 1;
      let evictedKeyIds: string[] = [];
      if (excess > 0) {
        evictedKeyIds = cap.evictLoginKeys ? (this.oldestLoginKeys.all(key.accountId, cap.now, excess) as string[]) : [];
        if (evictedKeyIds.length < excess) return { outcome: 'at-cap', liveKeys };
        for (const id of evictedKeyIds) this.revoke.run(cap.now, id);
      }
      insertKey(key);
      return { outcome: 'created', evictedKeyIds };
    });
    this.run = (key, cap) => transaction.immediate(key, cap);
  }

  createWithinCap(key: ApiKeyRecord, cap: KeyCap): CappedKeyResult {
    return this.run(key, cap);
  }
}
