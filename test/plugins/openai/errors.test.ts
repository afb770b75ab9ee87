import { expect } from 'chai';
import nock from 'nock';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { expectScenarioFailure } from '../../support/scenario-failures';
import { createProvider, synthesisRequest, TEST_KEY } from './harness';

const failWith = (scenario: string, code: string) =>
  expectScenarioFailure('openai', scenario, async () => (await createProvider()).synthesize(synthesisRequest()), code);

describe('openai plugin: upstream failures', () => {
  it('maps 401 to TTS_ERR_UPSTREAM_AUTH (502) without echoing the key', async () => {
    const error = await failWith('unauthorized', 'TTS_ERR_UPSTREAM_AUTH');
    expect(error.status).to.equal(502);
    // The provider's own words go to the log, not to the client.
    expect(error.logContext?.providerMessage).to.include('Incorrect API key');
    expect(error.message).to.not.include('Incorrect API key');
    expect(JSON.stringify(error.details) + error.message).to.not.include(TEST_KEY);
    expect(error.details[0]).to.include({ upstreamStatus: 401, providerCode: 'invalid_api_key' });
  });

  // openai-node src/core/error.ts:28 reads an error's request id from the x-request-id header.
  it("logs OpenAI's x-request-id beside its message", async () => {
    const error = await failWith('unauthorized', 'TTS_ERR_UPSTREAM_AUTH');
    expect(error.logContext?.providerRequestId).to.equal('req_3f9a1c7e5b2d4e8f9a0b1c2d3e4f5a6b');
  });

  it('maps 429 to TTS_ERR_RATE_LIMITED with Retry-After', async () => {
    const error = await failWith('rate-limited', 'TTS_ERR_RATE_LIMITED');
    expect(error.status).to.equal(429);
    expect(error.retryAfterSeconds).to.equal(2);
  });

  it('maps a 429 insufficient_quota (a billing stop) to TTS_ERR_UPSTREAM_QUOTA (502), not retryable, without Retry-After', async () => {
    const error = await failWith('insufficient-quota', 'TTS_ERR_UPSTREAM_QUOTA');
    expect(error.status).to.equal(502);
    expect(error.retryable).to.equal(false);
    expect(error.retryAfterSeconds).to.equal(undefined);
    expect(error.message).to.include('quota or billing is exhausted');
    expect(error.details[0]).to.include({ upstreamStatus: 429, providerCode: 'insufficient_quota' });
  });

  it('maps 500 to TTS_ERR_UPSTREAM (502)', async () => {
    const error = await failWith('server-error', 'TTS_ERR_UPSTREAM');
    expect(error.status).to.equal(502);
  });

  it('rejects a 200 answer that is not audio as TTS_ERR_UPSTREAM_BAD_RESPONSE', async () => {
    const error = await failWith('malformed', 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
    expect(error.message).to.include('text/html');
  });

  it('rejects an empty audio body', async () => {
    nock('https://api.openai.com').post('/v1/audio/speech').reply(200, '', { 'Content-Type': 'audio/mpeg' });
    const provider = await createProvider();
    await expectGatewayError(provider.synthesize(synthesisRequest()), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
    nock.cleanAll();
  });

  it('times out with TTS_ERR_TIMEOUT (504) after timeoutMs', async () => {
    nock('https://api.openai.com').post('/v1/audio/speech').delay(2000).reply(200, Buffer.from('494433', 'hex'), { 'Content-Type': 'audio/mpeg' });
    try {
      const provider = await createProvider({ timeoutMs: 50 });
      const error = await expectGatewayError(provider.synthesize(synthesisRequest()), 'TTS_ERR_TIMEOUT');
      expect(error.status).to.equal(504);
    } finally {
      nock.cleanAll();
    }
  });
});
