import { expect } from 'chai';
import nock from 'nock';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { expectScenarioFailure } from '../../support/scenario-failures';
import { createProvider, synthesisRequest, TEST_CREDENTIALS } from './harness';

const failureOfScenario = (scenario: string) =>
  expectScenarioFailure('polly', scenario, async () => (await createProvider()).synthesize(synthesisRequest({})));

describe('polly plugin: upstream failures', () => {
  afterEach(() => nock.cleanAll());

  it('maps 403 UnrecognizedClientException to TTS_ERR_UPSTREAM_AUTH', async () => {
    const error = await failureOfScenario('error-403');
    expect(error.code).to.equal('TTS_ERR_UPSTREAM_AUTH');
    expect(error.details[0]).to.include({ upstreamStatus: 403, providerCode: 'UnrecognizedClientException' });
    // The provider's own words go to the log, not to the client.
    expect(error.logContext?.providerMessage).to.include('security token');
    expect(error.message).to.not.include('security token');
  });

  // AWS answers carry x-amzn-RequestId (the SDK's $metadata.requestId), the id AWS support asks for.
  it("logs Polly's x-amzn-RequestId beside its message", async () => {
    const error = await failureOfScenario('error-403');
    expect(error.logContext?.providerRequestId).to.equal('b4d2e1f3-6c8e-4d9f-8a21-3c4d5e6f7081');
  });

  it('maps 403 InvalidSignatureException to TTS_ERR_UPSTREAM_AUTH without leaking the secret', async () => {
    const error = await failureOfScenario('error-signature');
    expect(error.code).to.equal('TTS_ERR_UPSTREAM_AUTH');
    expect(JSON.stringify({ message: error.message, details: error.details })).not.to.contain(TEST_CREDENTIALS.secretAccessKey);
  });

  it('maps throttling (HTTP 400 ThrottlingException) to TTS_ERR_RATE_LIMITED', async () => {
    const error = await failureOfScenario('error-throttling');
    expect(error.code).to.equal('TTS_ERR_RATE_LIMITED');
    expect(error.status).to.equal(429);
    expect(error.retryAfterSeconds).to.equal(1);
    expect(error.details[0]).to.include({ providerCode: 'ThrottlingException' });
  });

  it('maps 500 ServiceFailureException to TTS_ERR_UPSTREAM', async () => {
    const error = await failureOfScenario('error-500');
    expect(error.code).to.equal('TTS_ERR_UPSTREAM');
    expect(error.details[0]).to.include({ upstreamStatus: 500, providerCode: 'ServiceFailureException' });
  });

  // A 400 a plain-text call can really get (an InvalidSsmlException needs SSML): Matthew has no
  // long-form voice (DescribeVoices lists its SupportedEngines without it). Message from the
  // Polly API reference's SynthesizeSpeech errors.
  it('keeps 400 EngineNotSupportedException a provider rejection (502) with its message', async () => {
    const error = await expectScenarioFailure('polly', 'error-engine-not-supported', async () =>
      (await createProvider()).synthesize(synthesisRequest({ model: 'polly-long-form', voice: 'Matthew' })));
    expect(error.code).to.equal('TTS_ERR_UPSTREAM');
    expect(error.details[0]).to.include({ upstreamStatus: 400, providerCode: 'EngineNotSupportedException' });
    expect(error.logContext?.providerMessage).to.include('not compatible with the voice');
  });

  it('answers 502 for an empty audio body', async () => {
    const error = await failureOfScenario('empty-audio');
    expect(error.code).to.equal('TTS_ERR_UPSTREAM_BAD_RESPONSE');
  });

  it('answers 502 when the Content-Type is not the audio asked for', async () => {
    nock('https://polly.us-east-1.amazonaws.com').post('/v1/speech').reply(200, '{"Voices":[]}', { 'content-type': 'application/json' });
    const error = await expectGatewayError((await createProvider()).synthesize(synthesisRequest({})));
    expect(error.code).to.equal('TTS_ERR_UPSTREAM_BAD_RESPONSE');
    expect(error.message).to.contain('application/json');
  });

  it('times out with TTS_ERR_TIMEOUT', async () => {
    nock('https://polly.us-east-1.amazonaws.com').post('/v1/speech').delay(500).reply(200, 'ID3', { 'content-type': 'audio/mpeg' });
    const error = await expectGatewayError((await createProvider({ timeoutMs: 50 })).synthesize(synthesisRequest({})));
    expect(error.code).to.equal('TTS_ERR_TIMEOUT');
  });
});
