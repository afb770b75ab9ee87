import type { PollyOptions } from '../../../plugins/polly';
import { pollyStandIn } from './polly-stand-in';
import { TEST_CREDENTIALS } from './polly-test-setup';

export const standInOptions: PollyOptions = { region: 'us-east-1', ...TEST_CREDENTIALS, timeoutMs: 5000 };

/** Polly's DescribeVoices and SynthesizeSpeech, answered from the recorded fixtures (signed calls only). */
export function standInFetch(): typeof fetch {
  return pollyStandIn;
}
