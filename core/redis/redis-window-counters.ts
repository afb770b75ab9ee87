import type Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { WindowCount, WindowCounters } from '../limits/window-counters';

/**
 * WindowCounters in Redis (rate-limiter-flexible's Redis backend), shared by every replica. While
 * Redis cannot be reached each limiter falls back at once to an insurance limiter in this
 * process's memory, so requests are still served (each replica then counts on its own), and it
 * uses Redis again as soon as the connection is back. The client should fail commands fast
 * while disconnected (createRedisClient with queueWhileDisconnected: false); it logs the outage.
 */
export class RedisWindowCounters implements WindowCounters {
  private readonly limiters = new Map<number, RateLimiterRedis>();

  constructor(
    private readonly client: Redis,
    /** Prefix of every counter's key (config redis.keyPrefix). */
    private readonly keyPrefix: string,
  ) {}

  private limiter(windowSeconds: number): RateLimiterRedis {
    let limiter = this.limiters.get(windowSeconds);
    if (!limiter) {
      // The quota is unbounded: callers compare counts with their own limits, which differ per account.
      const points = Number.MAX_SAFE_INTEGER;
      limiter = new RateLimiterRedis({
        storeClient: this.client,
        keyPrefix: `${this.keyPrefix}limits:${windowSeconds}`,
        points,
        duration: windowSeconds,
        // Not connected: the insurance limiter answers at once instead of the command waiting.
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory({ points, duration: windowSeconds }),
      });
      this.limiters.set(windowSeconds, limiter);
    }
    return limiter;
  }

  async add(key: string, points: number, windowSeconds: number): Promise<WindowCount> {
    const result = await this.limiter(windowSeconds).consume(key, points);
    return { count: result.consumedPoints, msBeforeReset: Math.max(0, result.msBeforeNext) };
  }

  async subtract(key: string, points: number, windowSeconds: number): Promise<void> {
    await this.limiter(windowSeconds).reward(key, points);
  }

  async peek(key: string, windowSeconds: number): Promise<WindowCount> {
    const result = await this.limiter(windowSeconds).get(key);
    return result ? { count: result.consumedPoints, msBeforeReset: Math.max(0, result.msBeforeNext) } : { count: 0, msBeforeReset: 0 };
  }

  async reset(key: string, windowSeconds: number): Promise<void> {
    await this.limiter(windowSeconds).delete(key);
  }
}
