import { expect } from 'chai';
import request from 'supertest';
import { gatewayError } from '../../core';
import { UNKNOWN_MODEL } from '../../server/usage-recorder';
import { buildTestApp, type TestApp } from './support/test-app';

/** As the synthesis service answers a model it does not serve. */
const modelNotFound = async (synthesisRequest: { model: string }): Promise<never> => {
  throw gatewayError('TTS_ERR_MODEL_NOT_FOUND', { provider: 'The gateway', model: synthesisRequest.model, served: 'the models its model list names' });
};

/**
 * A request for a model the gateway does not serve is counted (README, Usage), but not under the
 * name the client sent: each new name was a new row in the database (an account could grow it
 * without bound, one 404 at a time) and that text went on to the operator's `usage` table.
 */
describe('server: usage of requests for unknown models', () => {
  let test: TestApp;
  afterEach(() => test.close());

  it('counts them all under one name on tts-sync, tts-stream and /v1, never the names sent', async () => {
    test = await buildTestApp({ synthesize: modelNotFound, stream: modelNotFound });
    const { apiKey } = await test.register();
    const names = Array.from({ length: 20 }, (_, index) => `\u001b[2Jmodel-${index}`);
    for (const [index, model] of names.entries()) {
      const route = ['/api/v1/common/tts-sync', '/api/v1/common/tts-stream', '/v1/audio/speech'][index % 3];
      const body = route === '/v1/audio/speech' ? { model, voice: 'alloy', input: 'Hello' } : { model, voice: 'en-us', text: 'Hello' };
      await request(test.app).post(route).set('X-API-Key', apiKey).send(body).expect(404);
    }
    const usage = await request(test.app).get('/api/v1/usage').set('X-API-Key', apiKey).expect(200);
    expect(usage.body.data.byModel).to.deep.equal([{ model: UNKNOWN_MODEL, requests: 20, characters: 0, audioSeconds: 0, cacheHits: 0, errors: 0 }]);
    expect(usage.body.data.totals.requests).to.equal(20);
  });

  it('keeps counting a served model under its own name when it fails', async () => {
    test = await buildTestApp({
      synthesize: async () => {
        throw gatewayError('TTS_ERR_UPSTREAM', { provider: 'fake', upstream: 'HTTP 500' });
      },
    });
    const { apiKey } = await test.register();
    await request(test.app).post('/api/v1/common/tts-sync').set('X-API-Key', apiKey).send({ model: 'espeak-ng', voice: 'en-us', text: 'Hello' }).expect(502);
    const usage = await request(test.app).get('/api/v1/usage').set('X-API-Key', apiKey).expect(200);
    expect(usage.body.data.byModel.map((row: { model: string }) => row.model)).to.deep.equal(['espeak-ng']);
  });
});
