import type Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { LimiterWindowCounters, UNBOUNDED_POINTS } from '../limits/limiter-window-counters';

/**
 * WindowCounters in Redis (rate-limiter-flexible's Redis backend), shared by every replica. While
 * Redis cannot be reached each limiter falls back at once to an insurance limiter in this
 * process's memory, so requests are still served (each replica then counts on its own), and it
 * uses Redis again as soon as the connection is back. The client should fail commands fast
 * while disconnected (createRedisClient with queueWhileDisconnected: false); it logs the outage.
 */
export class RedisWindowCounters extends LimiterWindowCounters {
  constructor(
    client: Redis,
    /** Prefix of every counter's key (config redis.keyPrefix). */
    keyPrefix: string,
  ) {
    super(
      (windowSeconds) =>
        new RateLimiterRedis({
          storeClient: client,
          keyPrefix: `${keyPrefix}limits:${windowSeconds}`,
          points: UNBOUNDED_POINTS,
          duration: windowSeconds,
          // Not connected: the insurance limiter answers at once instead of the command waiting.
          rejectIfRedisNotReady: true,
          insuranceLimiter: new RateLimiterMemory({ points: UNBOUNDED_POINTS, duration: windowSeconds }),
        }),
    );
  }
}
