import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { WindowCount, WindowCounters } from './window-counters';

/**
 * WindowCounters in this process's memory (rate-limiter-flexible's memory backend, one
 * limiter per window length). Its quota is unbounded: the callers compare counts with their
 * own limits, which differ per account.
 */
export class MemoryWindowCounters implements WindowCounters {
  private readonly limiters = new Map<number, RateLimiterMemory>();

  private limiter(windowSeconds: number): RateLimiterMemory {
    let limiter = this.limiters.get(windowSeconds);
    if (!limiter) {
      limiter = new RateLimiterMemory({ points: Number.MAX_SAFE_INTEGER, duration: windowSeconds });
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
