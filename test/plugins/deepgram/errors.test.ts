import { expect } from 'chai';
import nock from 'nock';
import { expectScenarioFailure } from '../../support/scenario-failures';
import { createProvider, synthesisRequest } from './harness';

const failure = (scenario: string) =>
  expectScenarioFailure('deepgram', scenario, async () => (await createProvider()).synthesize(synthesisRequest()));

describe('deepgram plugin: upstream failures', () => {
  it('maps 401 INVALID_AUTH to an upstream credential error with Deepgram err_msg', async () => {
    const error = await failure('unauthorized');
    expect(error.code).to.equal('TTS_ERR_UPSTREAM_AUTH');
    expect(error.status).to.equal(502);
    // The provider's own words go to the log, not to the client.
    expect(error.logContext?.providerMessage).to.include('Invalid credentials.');
    expect(error.message).to.not.include('Invalid credentials.');
    expect(error.details[0]).to.include({ upstreamStatus: 401, providerCode: 'INVALID_AUTH' });
    expect(error.message).to.not.contain('dg-test-key');
  });

  // developers.deepgram.com/reference/errors: every error body carries "request_id", the id Deepgram's support asks for.
  it("logs Deepgram's request_id beside its message", async () => {
    const error = await failure('unauthorized');
    expect(error.logContext?.providerRequestId).to.equal('c1d2e3f4-0000-4a5b-8c9d-000000000401');
  });

  it('maps 429 to TTS_ERR_RATE_LIMITED (no Retry-After from Deepgram: the 1 s default)', async () => {
    const error = await failure('rate-limited');
    expect(error.code).to.equal('TTS_ERR_RATE_LIMITED');
    expect(error.retryAfterSeconds).to.equal(1);
  });

  it('maps 503 to TTS_ERR_UPSTREAM', async () => {
    const error = await failure('server-error');
    expect(error.code).to.equal('TTS_ERR_UPSTREAM');
    expect(error.details[0]).to.include({ upstreamStatus: 503 });
  });

  it('rejects a JSON body where audio was expected', async () => {
    expect((await failure('malformed-json-body')).code).to.equal('TTS_ERR_UPSTREAM_BAD_RESPONSE');
  });

  it('times out with TTS_ERR_TIMEOUT', async () => {
    nock('https://api.deepgram.com').post('/v1/speak').query(true).delay(500).reply(200, 'late', { 'content-type': 'audio/mpeg' });
    try {
      const provider = await createProvider({ timeoutMs: 50 });
      const error = await provider.synthesize(synthesisRequest()).catch((caught: unknown) => caught);
      expect(error).to.have.property('code', 'TTS_ERR_TIMEOUT');
    } finally {
      nock.cleanAll();
    }
  });
});
