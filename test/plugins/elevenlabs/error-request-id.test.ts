import { expect } from 'chai';
import nock from 'nock';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { createProvider, synthesisRequest, TEST_KEY } from './harness';

describe('elevenlabs plugin: the request id of an error answer reaches the log', () => {
  afterEach(() => nock.cleanAll());

  it("logs ElevenLabs' request_id as sent (the id its support asks for), and still never the key", async () => {
    // The documented shape (API reference, "Errors"): a 32-hex-digit request id.
    nock('https://api.elevenlabs.io')
      .post(/\/v1\/text-to-speech\/.*/)
      .reply(400, {
        detail: {
          type: 'validation_error',
          code: 'invalid_parameters',
          message: `The voice settings are invalid (key ${TEST_KEY}).`,
          status: 'invalid_parameters',
          request_id: '3c807fc4c3a1705f9638ecc764a91c01',
          param: 'voice_settings',
        },
      });
    const error = await expectGatewayError((await createProvider()).synthesize(synthesisRequest()), 'TTS_ERR_UPSTREAM');
    const logged = JSON.stringify(error.logContext);
    expect(logged).to.not.include(TEST_KEY);
    expect(logged).to.include('3c807fc4c3a1705f9638ecc764a91c01');
  });
});
