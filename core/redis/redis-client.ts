import type Redis from 'ioredis';
import { keepConnectionChecked } from './redis-heartbeat';

/** ioredis is loaded with the first connection (about 18 MB), not by every gateway that imports core. */
const ioredis = (): typeof Redis => (require('ioredis') as { default: typeof Redis }).default;

/** What the Redis parts log: a winston logger fits. */
export interface RedisLogger {
  warn(message: string, meta?: Record<string, unknown>): unknown;
  info(message: string, meta?: Record<string, unknown>): unknown;
}

export interface RedisClientOptions {
  /** Queue commands while disconnected (a subscriber) or fail them at once (request paths, which must not wait for Redis). */
  readonly queueWhileDisconnected: boolean;
  readonly logger?: RedisLogger;
  /** A name for the logs: `redis publisher`, `redis subscriber`. */
  readonly role: string;
  /** What the replica does meanwhile, for the one warning of an outage. */
  readonly whileAway?: string;
}

/** A command on the request path gives up after this long (Redis reachable but not answering). */
const REQUEST_PATH_COMMAND_TIMEOUT_MS = 500;

/** Reconnects forever, at most every two seconds: Redis coming back is picked up by itself. */
const retryStrategy = (attempt: number): number => Math.min(100 * attempt, 2000);

/**
 * An ioredis connection that never takes the gateway down: while Redis is away its commands
 * fail fast (or wait, for a subscriber), errors are logged once per outage, not per attempt.
 */
export function createRedisClient(url: string, options: RedisClientOptions): Redis {
  const client = new (ioredis())(url, {
    retryStrategy,
    enableOfflineQueue: options.queueWhileDisconnected,
    maxRetriesPerRequest: options.queueWhileDisconnected ? null : 0,
    ...(!options.queueWhileDisconnected && { commandTimeout: REQUEST_PATH_COMMAND_TIMEOUT_MS }),
    connectTimeout: 2000,
    // A replica starts even when Redis is down; it connects when Redis is there.
    lazyConnect: false,
  });
  let healthy = true;
  client.on('error', (error: Error) => {
    if (!healthy) return;
    healthy = false;
    options.logger?.warn(`${options.role}: Redis is unreachable, ${options.whileAway ?? 'working without it'} until it returns`, { error: error.message });
  });
  client.on('ready', () => {
    if (healthy) return;
    healthy = true;
    options.logger?.info(`${options.role}: Redis is back`);
  });
  keepConnectionChecked(client);
  return client;
}
