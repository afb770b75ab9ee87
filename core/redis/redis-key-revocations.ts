import type Redis from 'ioredis';
import type { KeyRevocations } from '../accounts/key-revocations';
import { createRedisClient, type RedisLogger } from './redis-client';

export interface RedisKeyRevocationsOptions {
  readonly url: string;
  /** Prefix of the channel name (config redis.keyPrefix). */
  readonly keyPrefix: string;
  readonly logger?: RedisLogger;
  /** How many revocations that could not be published are kept for later (the oldest go first). */
  readonly maxUnsentAnnouncements?: number;
}

/** Enough for any burst of revocations during a short outage; an id is about 40 bytes. */
const DEFAULT_MAX_UNSENT_ANNOUNCEMENTS = 2000;

/**
 * Key revocations over Redis pub/sub: one connection publishes, one subscribes (a subscribed
 * connection can do nothing else). After a reconnect the listener hears `onMissed`, since
 * announcements made while it was away are lost; `isListening` is false while it is away.
 * Announcements this replica could not publish are kept and published once it reconnects.
 */
export class RedisKeyRevocations implements KeyRevocations {
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly channel: string;
  private subscription: Promise<unknown> | undefined;
  /** Whether the current connection is subscribed (set by SUBSCRIBE's answer, cleared when it closes). */
  private subscribedHere = false;
  /**
   * Revocations whose PUBLISH failed or could not be sent, published again once the publishing
   * connection is ready: the subscribers on live connections were not told, and they trust
   * their key caches. In order, without duplicates (one id twice would tell nothing more).
   */
  private readonly unsent = new Set<string>();
  private sendingUnsent = false;

  constructor(private readonly options: RedisKeyRevocationsOptions) {
    this.channel = `${options.keyPrefix}key-revoked`;
    this.publisher = createRedisClient(options.url, { queueWhileDisconnected: false, logger: options.logger, role: 'redis publisher' });
    this.subscriber = createRedisClient(options.url, { queueWhileDisconnected: true, logger: options.logger, role: 'redis subscriber' });
    this.publisher.on('ready', () => void this.sendUnsent());
  }

  async announce(keyId: string): Promise<void> {
    this.unsent.delete(keyId);
    // Not connected: kept for the reconnect rather than waited for, since the revoking request
    // was already answered from the database.
    if (this.publisher.status !== 'ready') return this.keepUnsent(keyId);
    if (!(await this.publish(keyId))) this.keepUnsent(keyId);
  }

  /** Publishes once; answers whether Redis took it. A PUBLISH that timed out may still arrive: sent twice then, which is harmless. */
  private async publish(keyId: string): Promise<boolean> {
    try {
      await this.publisher.publish(this.channel, keyId);
      return true;
    } catch (error) {
      this.options.logger?.warn('a key revocation could not be announced to the other replicas yet; it is announced again once Redis is back', {
        error: error instanceof Error ? error.message : String(error),
      });
      return false;
    }
  }

  private keepUnsent(keyId: string): void {
    this.unsent.add(keyId);
    const limit = this.options.maxUnsentAnnouncements ?? DEFAULT_MAX_UNSENT_ANNOUNCEMENTS;
    for (const oldest of this.unsent) {
      if (this.unsent.size <= limit) break;
      // Dropped, the other replicas forget that key when their cache entry expires (10 s).
      this.unsent.delete(oldest);
    }
  }

  /** Sends what could not be sent, oldest first; stops at the first failure (the next 'ready' tries again). */
  private async sendUnsent(): Promise<void> {
    if (this.sendingUnsent) return;
    this.sendingUnsent = true;
    try {
      for (const keyId of [...this.unsent]) {
        if (this.publisher.status !== 'ready') return;
        if (!this.unsent.has(keyId)) continue;
        if (!(await this.publish(keyId))) return;
        this.unsent.delete(keyId);
      }
    } finally {
      this.sendingUnsent = false;
    }
  }

  listen(listener: { onRevoked(keyId: string): void; onMissed(): void }): void {
    this.subscriber.on('message', (channel: string, keyId: string) => {
      if (channel === this.channel) listener.onRevoked(keyId);
    });
    this.subscriber.on('close', () => (this.subscribedHere = false));
    // Every connection made after listening follows a time without one (an outage, or a start
    // while Redis was away): what was published then is gone. ioredis subscribes again by itself;
    // this SUBSCRIBE (the same channel again, which Redis ignores) answers after that one, so the
    // listener hears `onMissed` once announcements reach it again, not before: a key read from the
    // database between the two could otherwise be cached and its revocation missed.
    this.subscriber.on('ready', () => void this.subscribe(() => listener.onMissed()));
    this.subscription = this.subscribe(() => undefined);
  }

  isListening(): boolean {
    return this.subscribedHere && this.subscriber.status === 'ready';
  }

  private subscribe(whenSubscribed: () => void): Promise<void> {
    return this.subscriber.subscribe(this.channel).then(
      () => {
        this.subscribedHere = true;
        whenSubscribed();
      },
      (error: unknown) => {
        this.options.logger?.warn('could not subscribe to key revocations', { error: error instanceof Error ? error.message : String(error) });
      },
    );
  }

  /**
   * Waits (at most `timeoutMs`) for the publishing connection, for a short-lived process such
   * as the CLI that announces right after it starts; answers whether it is connected.
   */
  async connected(timeoutMs: number): Promise<boolean> {
    if (this.publisher.status === 'ready') return true;
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.publisher.once('ready', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** Resolves once the subscription is in place (start-up and tests). */
  async subscribed(): Promise<void> {
    await this.subscription;
  }

  async close(): Promise<void> {
    this.publisher.disconnect();
    this.subscriber.disconnect();
  }
}
