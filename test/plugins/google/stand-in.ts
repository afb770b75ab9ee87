import type { GoogleOptions } from '../../../plugins/google';
import { googleStandIn } from './google-stand-in';
import { TEST_API_KEY } from './google-test-setup';

export const standInOptions: GoogleOptions = { apiKey: TEST_API_KEY, baseUrl: 'https://texttospeech.googleapis.com', timeoutMs: 5000 };

/** Google's voice list and `text:synthesize`, answered from the recorded fixtures. */
export function standInFetch(): typeof fetch {
  return googleStandIn;
}
