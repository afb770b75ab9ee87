import type { AccountActivity, FailedUsageRecord, UsageRecord } from './account-store';
import { newestPart, rowsNotWritten, WRITER_PRUNE_INTERVAL_MS, WRITER_RETENTION_MS } from './activity-parts';
import type { PostgresQuery } from './postgres-usage-and-limits';

/**
 * Records the newest part and answers the one recorded before (0 for a new writer), in one
 * statement. An earlier write of the same parts still running (its client gave up on its COMMIT)
 * holds the row: this waits for it and reads what it committed.
 */
const CLAIM = `
  INSERT INTO activity_writers AS w (writer_id, last_part, previous_part, written_at) VALUES ($1, $2, 0, $3)
  ON CONFLICT (writer_id) DO UPDATE SET
    previous_part = w.last_part,
    last_part = GREATEST(w.last_part, EXCLUDED.last_part),
    written_at = EXCLUDED.written_at
  RETURNING previous_part`;

/**
 * The `activity_writers` table on PostgreSQL: each writer's newest part written, so that a batch
 * whose COMMIT went through while its writer heard a failure (the answer lost, the client's
 * limit) is not counted twice when it is sent again (see ActivitySender).
 */
export class PostgresActivityWriters {
  private prunedAt = 0;

  /** The batch's rows not written yet, inside the caller's transaction; records its parts as written (one round trip). */
  async rowsToWrite(query: PostgresQuery, activity: AccountActivity, now = Date.now()): Promise<{ usage: readonly UsageRecord[]; failures: readonly FailedUsageRecord[] }> {
    const newest = newestPart(activity);
    if (!activity.sender || newest === 0) return activity;
    const { rows } = await query<{ previous_part: number }>(CLAIM, [activity.sender.writerId, newest, now]);
    return rowsNotWritten(activity, rows[0].previous_part);
  }

  /** Forgets writers gone for a month, at most hourly, outside any batch's transaction (best effort). */
  pruneNow(query: PostgresQuery, now = Date.now()): void {
    if (now - this.prunedAt < WRITER_PRUNE_INTERVAL_MS) return;
    this.prunedAt = now;
    void query('DELETE FROM activity_writers WHERE written_at < $1', [now - WRITER_RETENTION_MS]).catch(() => undefined);
  }
}
