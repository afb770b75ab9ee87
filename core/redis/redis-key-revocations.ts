import type Redis from 'ioredis';
import type { KeyRevocations } from '../accounts/key-revocations';
import { createRedisClient, type RedisLogger } from './redis-client';

export interface RedisKeyRevocationsOptions {
  readonly url: string;
  /** Prefix of the channel name (config redis.keyPrefix). */
  readonly keyPrefix: string;
  readonly logger?: RedisLogger;
}

/**
 * Key revocations over Redis pub/sub: one connection publishes, one subscribes (a subscribed
 * connection can do nothing else). After a reconnect the listener hears `onMissed`, since
 * announcements made while it was away are lost; `isListening` is false while it is away.
 */
export class RedisKeyRevocations implements KeyRevocations {
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly channel: string;
  private subscription: Promise<unknown> | undefined;
  /** Whether the current connection is subscribed (set by SUBSCRIBE's answer, cleared when it closes). */
  private subscribedHere = false;

  constructor(private readonly options: RedisKeyRevocationsOptions) {
    this.channel = `${options.keyPrefix}key-revoked`;
    this.publisher = createRedisClient(options.url, { queueWhileDisconnected: false, logger: options.logger, role: 'redis publisher' });
    this.subscriber = createRedisClient(options.url, { queueWhileDisconnected: true, logger: options.logger, role: 'redis subscriber' });
  }

  async announce(keyId: string): Promise<void> {
    try {
      await this.publisher.publish(this.channel, keyId);
    } catch (error) {
      this.options.logger?.warn('a key revocation could not be announced to the other replicas; they drop the key when their cache entry expires', {
        error: error instanceof Error ? error.message : String(error),
      });
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
