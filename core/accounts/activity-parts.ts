import type { AccountActivity, ActivityPart, FailedUsageRecord, UsageRecord } from './account-store';

/**
 * How long a store keeps a writer's last part after its last write. A writer that sends a batch
 * again does so within seconds of the failure it heard (or, with the database away, as soon as
 * it is back); a month covers any outage.
 */
export const WRITER_RETENTION_MS = 30 * 86_400_000;
/** A store forgets writers gone for longer than the retention at most this often. */
export const WRITER_PRUNE_INTERVAL_MS = 3_600_000;

/** The number of the batch's newest part; 0 when it carries no rows. */
export function newestPart(activity: AccountActivity): number {
  return activity.sender?.parts.at(-1)?.number ?? 0;
}

/**
 * The rows of the parts numbered above `written`, the newest part of this writer the store
 * already holds: those up to it were committed by an earlier write of the same rows.
 */
export function rowsNotWritten(activity: AccountActivity, written: number): { usage: readonly UsageRecord[]; failures: readonly FailedUsageRecord[] } {
  let usageFrom = 0;
  let failuresFrom = 0;
  for (const part of activity.sender?.parts ?? []) {
    if (part.number > written) break;
    usageFrom += part.usage;
    failuresFrom += part.failures;
  }
  if (usageFrom === 0 && failuresFrom === 0) return activity;
  return { usage: activity.usage.slice(usageFrom), failures: activity.failures.slice(failuresFrom) };
}

/** The parts once the `count` oldest rows of one kind are dropped; parts left with no row go. */
export function withoutOldestRows(parts: readonly ActivityPart[], kind: 'usage' | 'failures', count: number): ActivityPart[] {
  let left = count;
  const kept: ActivityPart[] = [];
  for (const part of parts) {
    const dropped = Math.min(left, part[kind]);
    left -= dropped;
    const trimmed = dropped === 0 ? part : { ...part, [kind]: part[kind] - dropped };
    if (trimmed.usage + trimmed.failures > 0) kept.push(trimmed);
  }
  return kept;
}

/** How many rows of each kind the parts cover. */
export function rowsCovered(parts: readonly ActivityPart[]): { usage: number; failures: number } {
  let usage = 0;
  let failures = 0;
  for (const part of parts) {
    usage += part.usage;
    failures += part.failures;
  }
  return { usage, failures };
}
