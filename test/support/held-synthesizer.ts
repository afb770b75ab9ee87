import type { CacheStorage, SynthesisResult, Synthesizer } from '../../core';
import { appliedPlan } from './applied-plan';

const facts = { format: 'mp3' as const, applied: appliedPlan(), provider: 'acme', servedBy: 'm/v', instructionsIgnored: false };

/** One provider call, held until the test ends it. */
export interface HeldCall {
  /** Stores audio and answers it. */
  succeed(): void;
  fail(): void;
}

/**
 * A provider whose every file synthesis is held until the test ends it, in any order: for
 * overlapping identical requests whose calls must end in a given order, with no timers.
 */
export interface HeldSynthesizer {
  readonly synthesizer: Synthesizer;
  /** The calls made so far, in order. */
  readonly calls: readonly HeldCall[];
  /** Resolves once `count` calls have been made (all that is already under way has run). */
  callsMade(count: number): Promise<void>;
}

export function heldSynthesizer(storage: CacheStorage): HeldSynthesizer {
  const calls: HeldCall[] = [];
  // Told of each call as it is made: a call may come after network round trips (a Redis lock), not within a few turns.
  const watchers = new Set<() => void>();
  const synthesizer: Synthesizer = {
    synthesize: () =>
      new Promise<SynthesisResult>((resolve, reject) => {
        calls.push({
          succeed: () => void storage.save(Buffer.from('audio'), 'mp3').then((saved) => resolve({ ...saved, ...facts }), reject),
          fail: () => reject(new Error('provider unavailable')),
        });
        for (const watcher of watchers) watcher();
      }),
    stream: async () => Promise.reject(new Error('not used')),
  };
  /** Waits for the call, however long it takes to come (the test's own timeout bounds it). */
  async function callsMade(count: number): Promise<void> {
    if (calls.length < count) {
      await new Promise<void>((resolve) => {
        const watcher = (): void => {
          if (calls.length < count) return;
          watchers.delete(watcher);
          resolve();
        };
        watchers.add(watcher);
      });
    }
    // The requests that made them have set up their waits too.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { synthesizer, calls, callsMade };
}
