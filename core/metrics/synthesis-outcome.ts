import { isGatewayError } from '../errors';
import type { SynthesisOutcome } from './metrics';

/** The outcome word of a failed synthesis, from its error's status. */
export function synthesisOutcomeOf(error: unknown): SynthesisOutcome {
  if (!isGatewayError(error)) return 'internal';
  if (error.code === 'TTS_ERR_CANCELLED') return 'cancelled';
  if (error.status === 504) return 'timeout';
  // An account's own quota (limits.storageBytes, 507) is a limit like the others, not a bug.
  if (error.status === 429 || (error.code === 'TTS_ERR_STORAGE_FULL' && error.details[0]?.reason === 'storage_quota')) return 'rate_limited';
  if (error.status === 502 || error.status === 503) return 'upstream_error';
  if (error.status >= 400 && error.status < 500) return 'client_error';
  return 'internal';
}
