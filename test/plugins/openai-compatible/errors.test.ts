import { expect } from 'chai';
import nock from 'nock';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { expectScenarioFailure } from '../../support/scenario-failures';
import { createProvider, KOKORO_URL, LOCALAI_URL, synthesisRequest, TEST_KEY } from './harness';

const failWith = (scenario: string, code: string, options = {}, request = synthesisRequest()) =>
  expectScenarioFailure('openai-compatible', scenario, async () => (await createProvider(options)).synthesize(request), code);

describe('openai-compatible plugin: upstream failures', () => {
  it('maps 401 to TTS_ERR_UPSTREAM_AUTH and names the instance, not the key', async () => {
    const error = await failWith('unauthorized', 'TTS_ERR_UPSTREAM_AUTH', { baseUrl: LOCALAI_URL, apiKey: TEST_KEY }, synthesisRequest({ model: 'tts-1', voice: 'alloy' }));
    expect(error.message).to.include('OpenAI-compatible server kokoro');
    expect(error.message + JSON.stringify(error.details)).to.not.include(TEST_KEY);
  });

  it('maps a proxy\'s 429 to TTS_ERR_RATE_LIMITED with Retry-After', async () => {
    const error = await failWith('rate-limited', 'TTS_ERR_RATE_LIMITED');
    expect(error.retryAfterSeconds).to.equal(10);
  });

  it('maps a relayed 429 insufficient_quota (a billing stop) to TTS_ERR_UPSTREAM_QUOTA without Retry-After', async () => {
    const error = await failWith('proxy-insufficient-quota', 'TTS_ERR_UPSTREAM_QUOTA', { baseUrl: 'http://llm-proxy.test:4000', apiKey: TEST_KEY }, synthesisRequest({ model: 'tts-1', voice: 'alloy' }));
    expect(error.retryable).to.equal(false);
    expect(error.retryAfterSeconds).to.equal(undefined);
    expect(error.details[0]).to.include({ upstreamStatus: 429, providerCode: 'insufficient_quota' });
  });

  it('maps 500 to TTS_ERR_UPSTREAM with the server\'s message', async () => {
    const error = await failWith('server-error', 'TTS_ERR_UPSTREAM');
    // The provider's own words go to the log, not to the client.
    expect(error.logContext?.providerMessage).to.include('CUDA out of memory');
    expect(error.message).to.not.include('CUDA out of memory');
  });

  it('rejects a JSON answer where audio was expected', async () => {
    await failWith('speech-not-audio', 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
  });

  it('maps an unreachable server to TTS_ERR_UNAVAILABLE (503)', async () => {
    nock(KOKORO_URL).post('/v1/audio/speech').replyWithError({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' });
    try {
      const error = await expectGatewayError((await createProvider()).synthesize(synthesisRequest()), 'TTS_ERR_UNAVAILABLE');
      expect(error.status).to.equal(503);
    } finally {
      nock.cleanAll();
    }
  });

  it('times out with TTS_ERR_TIMEOUT (504) after timeoutMs', async () => {
    nock(KOKORO_URL).post('/v1/audio/speech').delay(2000).reply(200, Buffer.from('494433', 'hex'), { 'content-type': 'audio/mpeg' });
    try {
      await expectGatewayError((await createProvider({ timeoutMs: 50 })).synthesize(synthesisRequest()), 'TTS_ERR_TIMEOUT');
    } finally {
      nock.cleanAll();
    }
  });
});
