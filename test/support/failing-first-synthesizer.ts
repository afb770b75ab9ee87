import type { CacheStorage, SynthesisResult, Synthesizer } from '../../core';
import { appliedPlan } from './applied-plan';

const facts = { format: 'mp3' as const, applied: appliedPlan(), provider: 'acme', servedBy: 'm/v', instructionsIgnored: false };

/** A provider whose first call fails when told to; later calls succeed after `delayMs`. It counts the calls, and the most at once. */
export interface FailingFirstSynthesizer {
  readonly synthesizer: Synthesizer;
  /** Makes the first call fail now. */
  failFirst(): void;
  readonly counts: { calls: number; mostAtOnce: number };
}

export function failingFirstSynthesizer(storage: CacheStorage, delayMs: number): FailingFirstSynthesizer {
  const counts = { calls: 0, mostAtOnce: 0 };
  let running = 0;
  let failFirst!: () => void;
  const firstFails = new Promise<void>((resolve) => (failFirst = resolve));
  const synthesizer: Synthesizer = {
    synthesize: async () => {
      counts.calls += 1;
      const call = counts.calls;
      running += 1;
      counts.mostAtOnce = Math.max(counts.mostAtOnce, running);
      try {
        if (call === 1) {
          await firstFails;
          throw new Error('provider unavailable');
        }
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        return { ...(await storage.save(Buffer.from('audio'), 'mp3')), ...facts } satisfies SynthesisResult;
      } finally {
        running -= 1;
      }
    },
    stream: async () => Promise.reject(new Error('not used')),
  };
  return { synthesizer, failFirst, counts };
}
