import { expect } from 'chai';
import request from 'supertest';
import { GatewayError } from '../../core';
import { buildTestApp, expectErrorEnvelope, VOICES, type TestApp, type TestAppOptions } from './support/test-app';

describe('server /api/v1/tools', () => {
  let testApp: TestApp;
  let apiKey: string;
  const requestedModels: string[] = [];

  async function start(options: TestAppOptions = {}): Promise<void> {
    testApp = await buildTestApp(options);
    ({ apiKey } = await testApp.register());
  }
  afterEach(() => testApp.close());

  beforeEach(() =>
    start({
      listVoices: async (model) => {
        requestedModels.push(model);
        if (model !== 'espeak-ng') throw new GatewayError('TTS_ERR_MODEL_NOT_FOUND', `Unknown model "${model}"`);
        return VOICES;
      },
    }),
  );

  it('lists models', async () => {
    const response = await request(testApp.app).get('/api/v1/tools/models').set('X-API-Key', apiKey).expect(200);
    expect(response.body).to.include({ success: true });
    expect(response.body.data).to.deep.equal(['espeak-ng', 'tts-1']);
  });

  it('lists the voices of a model', async () => {
    const response = await request(testApp.app).get('/api/v1/tools/voices/espeak-ng').set('X-API-Key', apiKey).expect(200);
    expect(response.body.data).to.deep.equal(VOICES);
    expect(requestedModels.at(-1)).to.equal('espeak-ng');
  });

  it('passes an encoded model name decoded', async () => {
    await request(testApp.app).get('/api/v1/tools/voices/acme%2Fmodel%20v2').set('X-API-Key', apiKey).expect(404);
    expect(requestedModels.at(-1)).to.equal('acme/model v2');
  });

  it('answers 404 for an unknown model and keeps serving', async () => {
    const response = await request(testApp.app).get('/api/v1/tools/voices/nope').set('X-API-Key', apiKey).expect(404);
    expectErrorEnvelope(response.body, 'TTS_ERR_MODEL_NOT_FOUND');
    expect(response.body.message).to.equal('Unknown model "nope"');
    await request(testApp.app).get('/api/v1/tools/voices/espeak-ng').set('X-API-Key', apiKey).expect(200);
  });

  it('answers 401 without a key', async () => {
    expectErrorEnvelope((await request(testApp.app).get('/api/v1/tools/models').expect(401)).body, 'TTS_ERR_UNAUTHORIZED');
    expectErrorEnvelope((await request(testApp.app).get('/api/v1/tools/voices/espeak-ng').expect(401)).body, 'TTS_ERR_UNAUTHORIZED');
  });

  it('answers a generic 500 when listing throws a plain Error', async () => {
    await testApp.close();
    await start({ listModels: async () => Promise.reject(new TypeError('cannot read properties of undefined')) });
    const response = await request(testApp.app).get('/api/v1/tools/models').set('X-API-Key', apiKey).expect(500);
    expectErrorEnvelope(response.body, 'TTS_ERR_INTERNAL');
    expect(JSON.stringify(response.body)).to.not.include('undefined');
    await request(testApp.app).get('/api/v1/tools/voices/espeak-ng').set('X-API-Key', apiKey).expect(200);
  });
});
