import type { ErrorCode } from '../errors';
import type { AudioJob, AudioResult } from './audio-job';

export type AudioTask = { readonly kind: 'warm-up' } | { readonly kind: 'process'; readonly job: AudioJob };

/**
 * Failures travel as data, not as thrown errors: the pool reports thrown errors as internal
 * ones, and the caller needs the real code (bad upstream audio, unsupported format...).
 */
export type AudioTaskOutcome =
  | { readonly ok: true; readonly result?: AudioResult }
  | { readonly ok: false; readonly code: ErrorCode; readonly message: string };
