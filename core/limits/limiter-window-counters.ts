import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { WindowCount, WindowCounters } from './window-counters';

/** The counters' quota is unbounded: callers compare counts with their own limits, which differ per account. */
export const UNBOUNDED_POINTS = Number.MAX_SAFE_INTEGER;

/**
 * WindowCounters over any rate-limiter-flexible backend, one limiter per window length (made by
 * `makeLimiter` at the window's first use). The backends differ only in where they count.
 */
export class LimiterWindowCounters implements WindowCounters {
  private readonly limiters = new Map<number, RateLimiterAbstract>();

  constructor(private readonly makeLimiter: (windowSeconds: number) => RateLimiterAbstract) {}

  private limiter(windowSeconds: number): RateLimiterAbstract {
    let limiter = this.limiters.get(windowSeconds);
    if (!limiter) {
      limiter = this.makeLimiter(windowSeconds);
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
