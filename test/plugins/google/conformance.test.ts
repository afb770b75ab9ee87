import { describeProviderConformance } from '../../../core/testing';
import google from '../../../plugins/google';
import { googleStandIn } from './google-stand-in';
import { TEST_API_KEY } from './google-test-setup';

describeProviderConformance({
  plugin: google,
  options: { apiKey: TEST_API_KEY, baseUrl: 'https://texttospeech.googleapis.com', timeoutMs: 5000 },
  fetch: googleStandIn,
});
