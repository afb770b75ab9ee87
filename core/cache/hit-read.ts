import { LinkedAbort } from '../abort/linked-abort';
import { raceAbort } from '../abort/race-abort';
import { isGatewayError } from '../errors';

/**
 * A hit's read slower than this (beyond its base time) counts as stalled: a large file is given
 * time by its size (1 MiB a second), so that a slow but working store still answers its hits.
 */
const SLOWEST_READ_BYTES_PER_MS = (1024 * 1024) / 1000;

/** How a hit's read went. */
export type HitRead<Value> =
  /** The store answered. */
  | { readonly outcome: 'read'; readonly value: Value }
  /** The file is gone for good: the entry is dropped. */
  | { readonly outcome: 'gone' }
  /** The store failed or did not answer in time: a miss for this request only; the entry stays. */
  | { readonly outcome: 'unreadable'; readonly reason: string };

export interface HitReadLimits {
  /** Aborted when the client goes away: the read stops, and its reason is thrown. */
  readonly clientSignal?: AbortSignal;
  /** The time a hit's read may take, for a small file; absent = as long as the client waits. */
  readonly timeoutMs?: number;
  /** Bytes of the stored file, which add to `timeoutMs`. */
  readonly size: number;
}

/** The time a hit's read of `size` bytes is given. */
export function hitReadTimeoutMs(baseMs: number, size: number): number {
  return baseMs + Math.ceil(size / SLOWEST_READ_BYTES_PER_MS);
}

/**
 * Runs a hit's read (`read` answers undefined for a file that is gone) within its deadline and
 * the client's stay: a read that does not settle in time is left (its signal stops it) and
 * answers `unreadable`, as does one that fails. A client that leaves makes this throw its signal's
 * reason, as a synthesis would.
 */
export async function boundedHitRead<Value>(read: (signal: AbortSignal) => Promise<Value | undefined>, limits: HitReadLimits): Promise<HitRead<Value>> {
  const timeoutMs = limits.timeoutMs === undefined ? undefined : hitReadTimeoutMs(limits.timeoutMs, limits.size);
  const bound = new LinkedAbort([limits.clientSignal], timeoutMs);
  try {
    const value = await raceAbort(read(bound.signal), bound.signal, () => bound.signal.reason);
    return value === undefined ? { outcome: 'gone' } : { outcome: 'read', value };
  } catch (error) {
    if (limits.clientSignal?.aborted) throw limits.clientSignal.reason;
    return { outcome: 'unreadable', reason: bound.signal.aborted ? `no answer within ${timeoutMs} ms` : describe(error) };
  } finally {
    bound.dispose();
  }
}

/** A store's failure for the log: a GatewayError's message is safe to show; of anything else only its name and code (a message may name the file, whose name is its download link). */
function describe(error: unknown): string {
  if (isGatewayError(error)) return error.message;
  const failure = error as { name?: unknown; code?: unknown } | null;
  const name = typeof failure?.name === 'string' ? failure.name : 'an error';
  return typeof failure?.code === 'string' ? `${name} (${failure.code})` : name;
}
