import type Database from 'better-sqlite3';
import type { AccountActivity, FailedUsageRecord, UsageRecord } from './account-store';
import { newestPart, rowsNotWritten, WRITER_PRUNE_INTERVAL_MS, WRITER_RETENTION_MS } from './activity-parts';

/** Records the newest part and answers the one recorded before (0 for a new writer), in one statement. */
const CLAIM = `
  INSERT INTO activity_writers (writer_id, last_part, previous_part, written_at) VALUES (?, ?, 0, ?)
  ON CONFLICT (writer_id) DO UPDATE SET
    previous_part = last_part,
    last_part = max(last_part, excluded.last_part),
    written_at = excluded.written_at
  RETURNING previous_part`;

/**
 * The `activity_writers` table: each writer's newest part written, so that a batch sent again
 * after a write that failed is not counted twice (see ActivitySender). With SQLite a failed
 * commit is rolled back, so this is the same contract as PostgreSQL's rather than a need.
 */
export class SqliteActivityWriters {
  /** Prepared at the first use (a store opened on an older schema has no table yet). */
  private claim?: Database.Statement;
  private prunedAt = 0;

  constructor(private readonly database: Database.Database) {}

  /** The batch's rows not written yet (inside the caller's transaction); records its parts as written. */
  rowsToWrite(activity: AccountActivity, now = Date.now()): { usage: readonly UsageRecord[]; failures: readonly FailedUsageRecord[] } {
    const newest = newestPart(activity);
    if (!activity.sender || newest === 0) return activity;
    this.claim ??= this.database.prepare(CLAIM).pluck();
    const written = this.claim.get(activity.sender.writerId, newest, now) as number;
    if (now - this.prunedAt >= WRITER_PRUNE_INTERVAL_MS) {
      this.prunedAt = now;
      this.database.prepare('DELETE FROM activity_writers WHERE written_at < ?').run(now - WRITER_RETENTION_MS);
    }
    return rowsNotWritten(activity, written);
  }
}
