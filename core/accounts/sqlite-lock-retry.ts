import { setTimeout as pause } from 'node:timers/promises';
import { isLockConflict } from './sqlite-failure';

/**
 * Pauses between attempts at a statement another connection's lock held up: short at first (the
 * CLI's transactions take about a millisecond), then the last one over and over. Two busy
 * processes polling each other every 50 ms cost nothing noticeable.
 */
const PAUSES_MS = [1, 2, 5, 10, 25, 50];

/**
 * Runs `statement` (one synchronous SQLite call, a whole transaction at most) again after a pause
 * each time another connection's lock stopped it, until it goes through or `limitMs` has passed;
 * then the last failure is thrown. SQLite's own busy wait would sleep the whole process (every
 * request and stream of the gateway) for as long; here the event loop runs during the pauses.
 * A transaction that failed was rolled back, so running it again is safe.
 */
export async function retryWhileLocked<Value>(statement: () => Value, limitMs: number): Promise<Value> {
  const giveUpAt = Date.now() + limitMs;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return statement();
    } catch (error) {
      const leftMs = giveUpAt - Date.now();
      if (!isLockConflict(error) || leftMs <= 0) throw error;
      await pause(Math.min(PAUSES_MS[Math.min(attempt, PAUSES_MS.length - 1)], leftMs));
    }
  }
}
