import { expect } from 'chai';
import nock from 'nock';
import { isTransientFailure } from '../../../core/resilience/transient-failure';
import { retryDelayMs } from '../../../core/resilience/retry-delay';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { expectScenarioFailure } from '../../support/scenario-failures';
import { createProvider, synthesisRequest } from './harness';

const failWith = (scenario: string, code: string) =>
  expectScenarioFailure('openai', scenario, async () => (await createProvider()).synthesize(synthesisRequest()), code);

/** OpenAI's own retry headers, obeyed as openai-node src/client.ts obeys them (shouldRetry, retryRequest). */
describe("openai plugin: OpenAI's retry-after-ms and x-should-retry", () => {
  it('a 429 with retry-after-ms waits that many milliseconds, over the rounder Retry-After', async () => {
    const error = await failWith('rate-limited-retry-after-ms', 'TTS_ERR_RATE_LIMITED');
    expect(error.retryAfterSeconds).to.equal(1.2);
    // The retry layer waits at least the stated 1200 ms, not Retry-After's 2 s.
    expect(retryDelayMs(1, error, { backoffMs: 100, maxBackoffMs: 100 }, () => 0)).to.equal(1200);
    expect(error.message).to.include('retry after 2 s');
    expect(isTransientFailure(error)).to.equal(true);
  });

  it('a 500 with x-should-retry: false is not retried, though its status would be', async () => {
    const error = await failWith('server-error-should-not-retry', 'TTS_ERR_UPSTREAM');
    expect(error.retryable).to.equal(false);
    expect(isTransientFailure(error)).to.equal(false);
  });

  it('a 4xx with x-should-retry: true is retried, though its status would not be', async () => {
    // openai-node retries any status the header says to: a 409 here (its lock-timeout answer).
    nock('https://api.openai.com')
      .post('/v1/audio/speech')
      .reply(409, { error: { message: 'The request conflicted with another; please retry.', type: 'invalid_request_error', param: null, code: null } }, { 'x-should-retry': 'true', 'x-request-id': 'req_conflict' });
    try {
      const error = await expectGatewayError((await createProvider()).synthesize(synthesisRequest()), 'TTS_ERR_UPSTREAM');
      expect(error.retryable).to.equal(true);
      expect(isTransientFailure(error)).to.equal(true);
    } finally {
      nock.cleanAll();
    }
  });
});
