import { expect } from 'chai';
import nock from 'nock';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { expectScenarioFailure } from '../../support/scenario-failures';
import { createProvider, synthesisRequest, TEST_KEY } from './harness';

const failureOfScenario = (scenario: string) =>
  expectScenarioFailure('google', scenario, async () => (await createProvider()).synthesize(synthesisRequest({})));

describe('google plugin: upstream failures', () => {
  afterEach(() => nock.cleanAll());

  it('maps 403 PERMISSION_DENIED to TTS_ERR_UPSTREAM_AUTH', async () => {
    const error = await failureOfScenario('error-403');
    expect(error.code).to.equal('TTS_ERR_UPSTREAM_AUTH');
    expect(error.status).to.equal(502);
    expect(error.details[0]).to.include({ upstreamStatus: 403, providerCode: 'SERVICE_DISABLED' });
  });

  it('maps 403 BILLING_DISABLED (a billing stop) to TTS_ERR_UPSTREAM_QUOTA, not to a credentials error', async () => {
    const error = await failureOfScenario('error-billing-disabled');
    expect(error.code).to.equal('TTS_ERR_UPSTREAM_QUOTA');
    expect(error.retryable).to.equal(false);
    expect(error.details[0]).to.include({ upstreamStatus: 403, providerCode: 'BILLING_DISABLED' });
  });

  it('maps 400 API_KEY_INVALID to TTS_ERR_UPSTREAM_AUTH, without the key in the message', async () => {
    const error = await failureOfScenario('error-api-key-invalid');
    expect(error.code).to.equal('TTS_ERR_UPSTREAM_AUTH');
    // The provider's own words go to the log, not to the client.
    expect(error.logContext?.providerMessage).to.include('API key not valid');
    expect(error.message).to.not.include('API key not valid');
    expect(error.message).not.to.contain(TEST_KEY);
  });

  it('maps 429 RESOURCE_EXHAUSTED to TTS_ERR_RATE_LIMITED with RetryInfo as Retry-After', async () => {
    const error = await failureOfScenario('error-429');
    expect(error.code).to.equal('TTS_ERR_RATE_LIMITED');
    expect(error.status).to.equal(429);
    expect(error.retryAfterSeconds).to.equal(17);
    expect(error.details[0]).to.include({ providerCode: 'RATE_LIMIT_EXCEEDED' });
  });

  it('maps 500 INTERNAL to TTS_ERR_UPSTREAM', async () => {
    const error = await failureOfScenario('error-500');
    expect(error.code).to.equal('TTS_ERR_UPSTREAM');
    expect(error.status).to.equal(502);
  });

  it('keeps other 400 INVALID_ARGUMENT answers as TTS_ERR_UPSTREAM with Google\'s message', async () => {
    const error = await failureOfScenario('error-400-invalid-argument');
    expect(error.code).to.equal('TTS_ERR_UPSTREAM');
    // The provider's own words go to the log, not to the client.
    expect(error.logContext?.providerMessage).to.equal('Request contains an invalid argument.');
    expect(error.message).to.not.include('invalid argument');
    expect(error.details[0]).to.include({ upstreamStatus: 400, providerCode: 'INVALID_ARGUMENT' });
  });

  it('answers 502 when audioContent is not base64', async () => {
    const error = await failureOfScenario('malformed-base64');
    expect(error.code).to.equal('TTS_ERR_UPSTREAM_BAD_RESPONSE');
    expect(error.status).to.equal(502);
  });

  it('answers 502 when audioContent is missing', async () => {
    const error = await failureOfScenario('missing-audio');
    expect(error.code).to.equal('TTS_ERR_UPSTREAM_BAD_RESPONSE');
  });

  it('answers 502 when the body is not JSON', async () => {
    nock('https://texttospeech.googleapis.com').post('/v1/text:synthesize').reply(200, '<html>proxy error</html>', { 'content-type': 'text/html' });
    const error = await expectGatewayError((await createProvider()).synthesize(synthesisRequest({})));
    expect(error.code).to.equal('TTS_ERR_UPSTREAM_BAD_RESPONSE');
  });

  it('times out with TTS_ERR_TIMEOUT when Google does not answer in time', async () => {
    nock('https://texttospeech.googleapis.com').post('/v1/text:synthesize').delay(500).reply(200, { audioContent: 'AAAA' });
    const provider = await createProvider({ timeoutMs: 50 });
    const error = await expectGatewayError(provider.synthesize(synthesisRequest({})));
    expect(error.code).to.equal('TTS_ERR_TIMEOUT');
    expect(error.status).to.equal(504);
  });
});
