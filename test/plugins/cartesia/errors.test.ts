import { expect } from 'chai';
import nock from 'nock';
import { expectScenarioFailure } from '../../support/scenario-failures';
import { createProvider, synthesisRequest } from './harness';

const failure = (scenario: string) =>
  expectScenarioFailure('cartesia', scenario, async () => (await createProvider()).synthesize(synthesisRequest()));

describe('cartesia plugin: upstream failures', () => {
  it('maps 401 to an upstream credential error with the structured message', async () => {
    const error = await failure('unauthorized');
    expect(error.code).to.equal('TTS_ERR_UPSTREAM_AUTH');
    // The provider's own words go to the log, not to the client.
    expect(error.logContext?.providerMessage).to.include('Invalid API key.');
    expect(error.message).to.not.include('Invalid API key.');
    expect(error.message).to.not.contain('sk_car_test');
  });

  it('maps 429 concurrency_limited to TTS_ERR_RATE_LIMITED', async () => {
    const error = await failure('rate-limited');
    expect(error.code).to.equal('TTS_ERR_RATE_LIMITED');
    expect(error.details[0]).to.include({ upstreamStatus: 429, providerCode: 'concurrency_limited' });
    expect(error.logContext).to.include({ providerMessage: "You have exceeded your plan's concurrency limit." });
    expect(error.retryAfterSeconds).to.equal(1);
  });

  it('maps 500 to TTS_ERR_UPSTREAM', async () => {
    expect((await failure('server-error')).code).to.equal('TTS_ERR_UPSTREAM');
  });

  it('rejects a JSON body where audio was expected', async () => {
    expect((await failure('malformed-json-body')).code).to.equal('TTS_ERR_UPSTREAM_BAD_RESPONSE');
  });

  it('times out with TTS_ERR_TIMEOUT', async () => {
    nock('https://api.cartesia.ai').post('/tts/bytes').delay(500).reply(200, 'late', { 'content-type': 'audio/mpeg' });
    try {
      const error = await (await createProvider({ timeoutMs: 50 })).synthesize(synthesisRequest()).catch((caught: unknown) => caught);
      expect(error).to.have.property('code', 'TTS_ERR_TIMEOUT');
    } finally {
      nock.cleanAll();
    }
  });
});
