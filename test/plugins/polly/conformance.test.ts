import { describeProviderConformance } from '../../../core/testing';
import polly from '../../../plugins/polly';
import { pollyStandIn } from './polly-stand-in';
import { TEST_CREDENTIALS } from './polly-test-setup';

describeProviderConformance({
  plugin: polly,
  options: { region: 'us-east-1', ...TEST_CREDENTIALS, timeoutMs: 5000 },
  fetch: pollyStandIn,
});
