import { expect } from 'chai';
import nock from 'nock';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { expectScenarioFailure } from '../../support/scenario-failures';
import { createProvider, synthesisRequest, TEST_KEY } from './harness';

const failWith = (scenario: string, code: string) =>
  expectScenarioFailure('azure', scenario, async () => (await createProvider()).synthesize(synthesisRequest()), code);

describe('azure plugin: upstream failures', () => {
  it('maps 400 (bad SSML) to TTS_ERR_UPSTREAM (502)', async () => {
    const error = await failWith('error-400', 'TTS_ERR_UPSTREAM');
    expect(error.status).to.equal(502);
    expect(error.details[0]).to.include({ upstreamStatus: 400 });
  });

  it('maps 401 to TTS_ERR_UPSTREAM_AUTH without echoing the key', async () => {
    const error = await failWith('error-401', 'TTS_ERR_UPSTREAM_AUTH');
    expect(error.status).to.equal(502);
    // The provider's own words go to the log, not to the client.
    expect(error.logContext?.providerMessage).to.include('Access denied');
    expect(error.message).to.not.include('Access denied');
    expect(JSON.stringify(error.details) + error.message).to.not.include(TEST_KEY);
  });

  it('maps 429 to TTS_ERR_RATE_LIMITED with Retry-After', async () => {
    const error = await failWith('error-429', 'TTS_ERR_RATE_LIMITED');
    expect(error.status).to.equal(429);
    expect(error.retryAfterSeconds).to.equal(7);
  });

  it('maps 502 to TTS_ERR_UPSTREAM', async () => {
    const error = await failWith('error-502', 'TTS_ERR_UPSTREAM');
    expect(error.details[0]).to.include({ upstreamStatus: 502 });
  });

  it('rejects a 200 answer without audio', async () => {
    await failWith('empty-audio', 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
  });

  it('times out with TTS_ERR_TIMEOUT (504) after timeoutMs', async () => {
    nock('https://westeurope.tts.speech.microsoft.com').post('/cognitiveservices/v1').delay(2000).reply(200, Buffer.from('494433', 'hex'));
    try {
      const provider = await createProvider({ timeoutMs: 50 });
      const error = await expectGatewayError(provider.synthesize(synthesisRequest()), 'TTS_ERR_TIMEOUT');
      expect(error.status).to.equal(504);
    } finally {
      nock.cleanAll();
    }
  });

  it('refuses a format it does not produce natively', async () => {
    const provider = await createProvider();
    await expectGatewayError(provider.synthesize(synthesisRequest({ format: 'flac' })), 'TTS_ERR_UNSUPPORTED_FORMAT');
  });
});
