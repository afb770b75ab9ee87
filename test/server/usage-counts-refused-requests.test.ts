import { expect } from 'chai';
import request from 'supertest';
import { gatewayError } from '../../core';
import { buildTestApp, expectErrorEnvelope, type TestApp } from './support/test-app';

const VALID = { model: 'espeak-ng', text: 'Hello', voice: 'en-us' };

/**
 * README, Usage: "`requests` counts synthesis requests that passed the limits, successful or
 * failed; ... `errors` counts the failures of the gateway or the provider ..., not the client's
 * own mistakes (unknown model, bad format)". A request for an unknown model passes the limits
 * (it uses up one of the minute's requests) and fails: it is a request, not an error.
 */
describe('server GET /api/v1/usage counts every request that passed the limits', () => {
  let testApp: TestApp;
  afterEach(() => testApp.close());

  it('counts a client mistake (unknown model) in requests but not in errors', async () => {
    testApp = await buildTestApp({
      limits: { requestsPerMinute: 10, perKey: {} },
      synthesize: async () => {
        throw gatewayError('TTS_ERR_MODEL_NOT_FOUND', { provider: 'The gateway', model: 'nope', served: 'the models its model list names' });
      },
    });
    const { apiKey } = await testApp.register();
    const refused = await request(testApp.app).post('/api/v1/common/tts-sync').set('X-API-Key', apiKey).send({ ...VALID, model: 'nope' }).expect(404);
    expectErrorEnvelope(refused.body, 'TTS_ERR_MODEL_NOT_FOUND');
    // It used one of the minute's requests.
    expect(refused.headers.ratelimit).to.equal('"account-minute";r=9;t=60');
    const today = new Date().toISOString().slice(0, 10);
    const usage = await request(testApp.app).get(`/api/v1/usage?from=${today}&to=${today}`).set('X-API-Key', apiKey).expect(200);
    expect(usage.body.data.totals).to.deep.equal({ requests: 1, characters: 0, audioSeconds: 0, cacheHits: 0, errors: 0 });
  });
});
