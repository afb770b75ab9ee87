import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import type { ReleaseFlight, SharedFlight } from '../cache/result-index';
import { TurnoverTable } from '../objects/turnover-table';
import { createRedisClient } from './redis-client';

export interface RedisSharedFlightOptions {
  /** The connection for commands; fails fast while Redis is away. */
  readonly client: Redis;
  /** For the connection that listens to releases (a subscribed connection does nothing else). */
  readonly url: string;
  /** Prefix of every key and channel (config redis.keyPrefix). */
  readonly keyPrefix: string;
  /** A lock lasts this long unless its holder renews it (it does, every third of it, while it works). */
  readonly lockTtlMs?: number;
  /** How often a waiter looks whether the lock is still there (a lost release message, a dead holder). */
  readonly pollMs?: number;
}

const DEFAULT_LOCK_TTL_MS = 5000;
const DEFAULT_POLL_MS = 250;

/** Deletes or extends the lock only while it is still this holder's (it may have expired and been taken). */
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
const RENEW_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;

const ALONE: ReleaseFlight = async () => undefined;

/**
 * Single-flight of identical syntheses across replicas: a Redis lock per cache key (SET NX PX
 * with a token), renewed while its holder works, released with a message on a channel that
 * wakes the waiters at once. A holder that dies stops renewing: its lock expires and a waiter
 * takes it. Redis unreachable: every replica goes on alone.
 */
export class RedisSharedFlight implements SharedFlight {
  private readonly subscriber: Redis;
  private readonly channel: string;
  private readonly lockPrefix: string;
  private readonly lockTtlMs: number;
  private readonly pollMs: number;
  private readonly waiters = new TurnoverTable<Set<() => void>>();

  constructor(private readonly options: RedisSharedFlightOptions) {
    this.channel = `${options.keyPrefix}cache:released`;
    this.lockPrefix = `${options.keyPrefix}cache:lock:`;
    this.lockTtlMs = options.lockTtlMs ?? DEFAULT_LOCK_TTL_MS;
    this.pollMs = options.pollMs ?? DEFAULT_POLL_MS;
    // Not logged: the outage is told once, by the command connection's warning.
    this.subscriber = createRedisClient(options.url, { queueWhileDisconnected: true, role: 'result cache subscriber' });
    this.subscriber.on('message', (channel: string, key: string) => {
      if (channel === this.channel) this.wake(key);
    });
    this.subscriber.subscribe(this.channel).catch(() => undefined);
  }

  async acquire(key: string, signal?: AbortSignal): Promise<ReleaseFlight | undefined> {
    const lock = this.lockPrefix + key;
    const token = randomUUID();
    for (;;) {
      signal?.throwIfAborted();
      let taken: boolean;
      try {
        taken = (await this.options.client.set(lock, token, 'PX', this.lockTtlMs, 'NX')) === 'OK';
      } catch {
        signal?.throwIfAborted();
        return ALONE;
      }
      // Stopped while the lock was being taken: no one will use it, and other replicas may wait for it.
      if (signal?.aborted) {
        if (taken) await this.giveBack(key, lock, token);
        throw signal.reason;
      }
      if (taken) return this.hold(key, lock, token);
      // Released (done or failed): the caller looks again. Gone without a word: the holder died, try
      // to take it. Stopped: the loop's first line answers the signal's reason.
      const waited = await this.released(key, lock, signal);
      if (waited === 'released') return undefined;
    }
  }

  async close(): Promise<void> {
    this.subscriber.disconnect();
  }

  /** Keeps the lock alive while the work runs; the release deletes it and tells the waiters. */
  private hold(key: string, lock: string, token: string): ReleaseFlight {
    const { client } = this.options;
    const renewal = setInterval(() => void client.eval(RENEW_SCRIPT, 1, lock, token, this.lockTtlMs).catch(() => undefined), Math.max(1, Math.floor(this.lockTtlMs / 3)));
    renewal.unref();
    return async () => {
      clearInterval(renewal);
      await this.giveBack(key, lock, token);
    };
  }

  /** Deletes the lock if still this holder's and tells the waiters. */
  private async giveBack(key: string, lock: string, token: string): Promise<void> {
    try {
      await this.options.client.eval(RELEASE_SCRIPT, 1, lock, token);
      await this.options.client.publish(this.channel, key);
    } catch {
      // Redis went away: the lock expires by itself, the waiters notice by looking.
    }
  }

  /**
   * Waits until the holder's release message arrives ('released', also when Redis is
   * unreachable meanwhile, so the caller goes on), the lock is gone without one ('gone'), or
   * `signal` stops the wait ('stopped'; the lock stays as it is, for the others).
   */
  private async released(key: string, lock: string, signal: AbortSignal | undefined): Promise<'released' | 'gone' | 'stopped'> {
    let wake!: () => void;
    const woken = new Promise<'released'>((resolve) => (wake = () => resolve('released')));
    let stop!: () => void;
    const stopped = new Promise<'stopped'>((resolve) => (stop = () => resolve('stopped')));
    if (signal?.aborted) return 'stopped';
    signal?.addEventListener('abort', stop);
    const waiting = this.waiters.get(key) ?? new Set();
    waiting.add(wake);
    this.waiters.set(key, waiting);
    try {
      for (;;) {
        const held = await Promise.race([this.options.client.exists(lock).catch(() => 'unreachable' as const), stopped]);
        if (held === 'stopped') return held;
        if (held === 'unreachable') return 'released';
        if (held === 0) return 'gone';
        let timer: NodeJS.Timeout | undefined;
        const outcome = await Promise.race([woken, stopped, new Promise<'look'>((resolve) => (timer = setTimeout(() => resolve('look'), this.pollMs)))]);
        clearTimeout(timer);
        if (outcome !== 'look') return outcome;
      }
    } finally {
      signal?.removeEventListener('abort', stop);
      waiting.delete(wake);
      if (waiting.size === 0 && this.waiters.get(key) === waiting) this.waiters.delete(key);
    }
  }

  private wake(key: string): void {
    for (const wake of this.waiters.get(key) ?? []) wake();
  }
}
