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

  async acquire(key: string): Promise<ReleaseFlight | undefined> {
    const lock = this.lockPrefix + key;
    const token = randomUUID();
    for (;;) {
      let taken: boolean;
      try {
        taken = (await this.options.client.set(lock, token, 'PX', this.lockTtlMs, 'NX')) === 'OK';
      } catch {
        return ALONE;
      }
      if (taken) return this.hold(key, lock, token);
      // Released (done or failed): the caller looks again. Gone without a word: the holder died, try to take it.
      if (await this.released(key, lock)) return undefined;
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
      try {
        await client.eval(RELEASE_SCRIPT, 1, lock, token);
        await client.publish(this.channel, key);
      } catch {
        // Redis went away: the lock expires by itself, the waiters notice by looking.
      }
    };
  }

  /**
   * Waits until the holder's release message arrives (true) or the lock is gone without one
   * (false). Redis unreachable meanwhile: true, so the caller goes on.
   */
  private async released(key: string, lock: string): Promise<boolean> {
    let wake!: () => void;
    const woken = new Promise<'woken'>((resolve) => (wake = () => resolve('woken')));
    const waiting = this.waiters.get(key) ?? new Set();
    waiting.add(wake);
    this.waiters.set(key, waiting);
    try {
      for (;;) {
        let held: number;
        try {
          held = await this.options.client.exists(lock);
        } catch {
          return true;
        }
        if (held === 0) return false;
        let timer: NodeJS.Timeout | undefined;
        const outcome = await Promise.race([woken, new Promise<'look'>((resolve) => (timer = setTimeout(() => resolve('look'), this.pollMs)))]);
        clearTimeout(timer);
        if (outcome === 'woken') return true;
      }
    } finally {
      waiting.delete(wake);
      if (waiting.size === 0 && this.waiters.get(key) === waiting) this.waiters.delete(key);
    }
  }

  private wake(key: string): void {
    for (const wake of this.waiters.get(key) ?? []) wake();
  }
}
