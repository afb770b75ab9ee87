import type { AudioJob, AudioResult } from './audio-job';

export type AudioTask = { readonly kind: 'warm-up' } | { readonly kind: 'process'; readonly job: AudioJob };

/** A processed job, or nothing for a warm-up. Failures are thrown; the pool keeps their codes. */
export type AudioTaskOutcome = AudioResult | undefined;
