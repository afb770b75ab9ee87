import { RateLimiterMemory } from 'rate-limiter-flexible';
import { LimiterWindowCounters, UNBOUNDED_POINTS } from './limiter-window-counters';

/** WindowCounters in this process's memory (rate-limiter-flexible's memory backend). */
export class MemoryWindowCounters extends LimiterWindowCounters {
  constructor() {
    super((windowSeconds) => new RateLimiterMemory({ points: UNBOUNDED_POINTS, duration: windowSeconds }));
  }
}
