import type { ApiKeyRecord, CappedKeyResult, KeyCap } from './account-store';
import type { PostgresQuery } from './postgres-usage-and-limits';

/** A key neither revoked nor expired at $2 (the cap's `now`). */
const LIVE = 'revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)';

/**
 * Makes a key under the account's key cap, within the caller's transaction. The account's row is
 * locked first, so that replicas making keys for one account at once count them one after the
 * other (NO KEY UPDATE: key inserts elsewhere, which only share-lock it, are not held up).
 */
export async function createApiKeyWithinCap(query: PostgresQuery, key: ApiKeyRecord, cap: KeyCap, insertKey: (key: ApiKeyRecord) => Promise<unknown>): Promise<CappedKeyResult> {
  await query('SELECT 1 FROM accounts WHERE id = $1 FOR NO KEY UPDATE', [key.accountId]);
  const { rows } = await query<{ live: string }>(`SELECT COUNT(*) AS live FROM api_keys WHERE account_id = $1 AND ${LIVE}`, [key.accountId, cap.now]);
  const liveKeys = Number(rows[0].live);
  // A cap lowered in the config may leave more live keys than it allows: make room for all of them.
  const excess = liveKeys - cap.maxLiveKeys + 1;
  let evictedKeyIds: string[] = [];
  if (excess > 0) {
    if (cap.evictLoginKeys) {
      const oldest = await query<{ id: string }>(`SELECT id FROM api_keys WHERE account_id = $1 AND made_by_login AND ${LIVE} ORDER BY created_at, position LIMIT $3`, [key.accountId, cap.now, excess]);
      evictedKeyIds = oldest.rows.map((row) => row.id);
    }
    if (evictedKeyIds.length < excess) return { outcome: 'at-cap', liveKeys };
    await query('UPDATE api_keys SET revoked_at = $1 WHERE id = ANY($2::text[])', [cap.now, evictedKeyIds]);
  }
  await insertKey(key);
  return { outcome: 'created', evictedKeyIds };
}
