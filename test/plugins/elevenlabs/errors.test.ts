import { expect } from 'chai';
import nock from 'nock';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { expectScenarioFailure } from '../../support/scenario-failures';
import { readElevenLabsError } from '../../../plugins/elevenlabs/errors';
import { createProvider, synthesisRequest, TEST_KEY } from './harness';

const failWith = (scenario: string, code: string) =>
  expectScenarioFailure('elevenlabs', scenario, async () => (await createProvider()).synthesize(synthesisRequest()), code);

describe('elevenlabs plugin: upstream failures', () => {
  it('maps 401 to TTS_ERR_UPSTREAM_AUTH (502), carrying ElevenLabs\' status but not the key', async () => {
    const error = await failWith('unauthorized', 'TTS_ERR_UPSTREAM_AUTH');
    expect(error.status).to.equal(502);
    expect(error.details[0]).to.include({ upstreamStatus: 401, providerCode: 'invalid_api_key' });
    expect(error.logContext).to.include({ providerMessage: 'Invalid API key' });
    expect(JSON.stringify(error.details) + error.message).to.not.include(TEST_KEY);
  });

  it('maps a 401 quota_exceeded (out of credits) to TTS_ERR_UPSTREAM_QUOTA, not to a credentials error', async () => {
    const error = await failWith('quota-exceeded', 'TTS_ERR_UPSTREAM_QUOTA');
    expect(error.status).to.equal(502);
    expect(error.retryable).to.equal(false);
    expect(error.retryAfterSeconds).to.equal(undefined);
    expect(error.details[0]).to.include({ upstreamStatus: 401, providerCode: 'quota_exceeded' });
    // The provider's own words go to the log, not to the client.
    expect(error.logContext?.providerMessage).to.include('0 credits remaining');
    expect(error.message).to.not.include('0 credits remaining');
  });

  it('keeps the messages of a 422 whose detail is a validation list', async () => {
    // The endpoint's documented 422 (HTTPValidationError: detail[] of {loc, msg, type}), for a
    // body without its one required field. Not a speed-only voice_settings: since 2025-03-24
    // every voice_settings field is optional (changelog 2025-03-24), so that body is accepted.
    nock('https://api.elevenlabs.io')
      .post(/\/v1\/text-to-speech\/.*/)
      .reply(422, { detail: [{ loc: ['body', 'text'], msg: 'Field required', type: 'missing' }] });
    try {
      const error = await expectGatewayError((await createProvider()).synthesize(synthesisRequest()), 'TTS_ERR_UPSTREAM');
      expect(error.details[0]).to.include({ upstreamStatus: 422, providerCode: 'missing' });
      // The provider's own words go to the log, not to the client.
      expect(error.logContext).to.include({ providerMessage: 'body.text: Field required' });
      expect(error.message).to.not.include('Field required');
    } finally {
      nock.cleanAll();
    }
  });

  it('maps 429 to TTS_ERR_RATE_LIMITED with Retry-After', async () => {
    const error = await failWith('rate-limited', 'TTS_ERR_RATE_LIMITED');
    expect(error.retryAfterSeconds).to.equal(5);
  });

  it('maps 500 to TTS_ERR_UPSTREAM (502)', async () => {
    const error = await failWith('server-error', 'TTS_ERR_UPSTREAM');
    expect(error.status).to.equal(502);
  });

  it('rejects a 200 answer that is an HTML page', async () => {
    await failWith('speech-not-audio', 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
  });

  it('times out with TTS_ERR_TIMEOUT (504) after timeoutMs', async () => {
    nock('https://api.elevenlabs.io').post(/\/v1\/text-to-speech\/.*/).delay(2000).reply(200, Buffer.from('494433', 'hex'), { 'Content-Type': 'audio/mpeg' });
    try {
      const provider = await createProvider({ timeoutMs: 50 });
      const error = await expectGatewayError(provider.synthesize(synthesisRequest()), 'TTS_ERR_TIMEOUT');
      expect(error.status).to.equal(504);
    } finally {
      nock.cleanAll();
    }
  });

  describe('reading the error body', () => {
    const read = (status: number, body: unknown) => readElevenLabsError({ status, headers: new Headers(), text: JSON.stringify(body) });

    it('reads the documented shape: the code, and the message with its parameter and request id for the log', () => {
      // The example of ElevenLabs' API reference, "Errors".
      const reading = read(400, {
        detail: {
          type: 'validation_error',
          code: 'invalid_parameters',
          message: "The 'keyterms' parameter is only supported with the 'scribe_v2' model. You specified 'scribe_v1'.",
          status: 'invalid_parameters',
          request_id: '3c807fc4c3a1705f9638ecc764a91c01',
          param: 'keyterms',
        },
      });
      expect(reading).to.deep.equal({
        providerCode: 'invalid_parameters',
        providerMessage: "The 'keyterms' parameter is only supported with the 'scribe_v2' model. You specified 'scribe_v1'. (param: keyterms)",
        providerRequestId: '3c807fc4c3a1705f9638ecc764a91c01',
      });
    });

    it('takes the code over the legacy status, and knows an out-of-credits answer by either', () => {
      expect(read(401, { detail: { code: 'quota_exceeded', message: 'No credits left.' } })).to.deep.equal({ providerCode: 'quota_exceeded', providerMessage: 'No credits left.', providerRequestId: undefined, failure: 'quota' });
      expect(read(401, { detail: { status: 'quota_exceeded' } })).to.deep.equal({ providerCode: 'quota_exceeded', providerMessage: undefined, providerRequestId: undefined, failure: 'quota' });
      expect(read(429, { detail: { code: 'rate_limit_exceeded', status: 'too_many_requests' } }).providerCode).to.equal('rate_limit_exceeded');
    });
  });
});

