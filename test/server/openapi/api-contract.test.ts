import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import request, { type Response } from 'supertest';
import { API_ROUTES, type ApiRouteId } from '../../../server/api/api-routes';
import { OPENAI_ROUTES, type OpenAiRouteId } from '../../../server/api/openai-routes';
import type { RouteDescription } from '../../../server/api/route-description';
import { ERROR_ENVELOPE_SCHEMA, OPENAI_ERROR_SCHEMA } from '../../../server/openapi/error-schemas';
import { buildTestApp, type TestApp } from '../support/test-app';

interface Caller {
  readonly testApp: TestApp;
  readonly apiKey: string;
  readonly keyId: string;
}

/** One real call per route, made with the route's own documented example where it has one. */
const SCENARIOS: Readonly<Record<ApiRouteId | OpenAiRouteId, (caller: Caller) => Promise<Response>>> = {
  register: ({ testApp }) => request(testApp.app).post('/api/v1/auth/register').send(API_ROUTES.register.requestBody.example),
  login: ({ testApp }) => request(testApp.app).post('/api/v1/auth/login').send(API_ROUTES.login.requestBody.example),
  listKeys: ({ testApp, apiKey }) => request(testApp.app).get('/api/v1/auth/keys').set('X-API-Key', apiKey),
  createKey: ({ testApp, apiKey }) => request(testApp.app).post('/api/v1/auth/keys').set('X-API-Key', apiKey).send(API_ROUTES.createKey.requestBody.example),
  revokeKey: async ({ testApp, apiKey }) => {
    const spare = await request(testApp.app).post('/api/v1/auth/keys').set('X-API-Key', apiKey).send({ name: 'spare' });
    return request(testApp.app).delete(`/api/v1/auth/keys/${spare.body.data.id}`).set('X-API-Key', apiKey);
  },
  synthesize: ({ testApp, apiKey }) => request(testApp.app).post('/api/v1/common/tts-sync').set('X-API-Key', apiKey).send(API_ROUTES.synthesize.requestBody.example),
  streamSpeech: ({ testApp, apiKey }) => request(testApp.app).post('/api/v1/common/tts-stream').set('X-API-Key', apiKey).send(API_ROUTES.streamSpeech.requestBody.example),
  usage: ({ testApp, apiKey }) => request(testApp.app).get('/api/v1/usage?from=2026-01-01&to=2026-01-31').set('X-API-Key', apiKey),
  listModels: ({ testApp, apiKey }) => request(testApp.app).get('/api/v1/tools/models').set('X-API-Key', apiKey),
  listVoices: ({ testApp, apiKey }) => request(testApp.app).get('/api/v1/tools/voices/espeak-ng').set('X-API-Key', apiKey),
  downloadAudio: async ({ testApp, apiKey }) => {
    const synthesis = await request(testApp.app).post('/api/v1/common/tts-sync').set('X-API-Key', apiKey).send({ model: 'espeak-ng', voice: 'en-us', text: 'Hi' });
    return request(testApp.app).get(new URL(synthesis.body.data.audio_url).pathname);
  },
  liveness: ({ testApp }) => request(testApp.app).get('/health/live'),
  readiness: ({ testApp }) => request(testApp.app).get('/health/ready'),
  speech: ({ testApp, apiKey }) => request(testApp.app).post('/v1/audio/speech').set('Authorization', `Bearer ${apiKey}`).send(OPENAI_ROUTES.speech.requestBody.example),
  openAiModels: ({ testApp, apiKey }) => request(testApp.app).get('/v1/models').set('Authorization', `Bearer ${apiKey}`),
  openAiModel: ({ testApp, apiKey }) => request(testApp.app).get('/v1/models/tts-1').set('Authorization', `Bearer ${apiKey}`),
  openAiVoices: ({ testApp, apiKey }) => request(testApp.app).get('/v1/audio/voices?model=tts-1').set('Authorization', `Bearer ${apiKey}`),
};

describe('server: every route answers as its description says', () => {
  let testApp: TestApp;
  let caller: Caller;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);

  before(async () => {
    testApp = await buildTestApp();
    const { apiKey, keyId } = await testApp.register();
    caller = { testApp, apiKey, keyId };
  });
  after(() => testApp.close());

  for (const [id, route] of Object.entries({ ...API_ROUTES, ...OPENAI_ROUTES }) as [ApiRouteId | OpenAiRouteId, RouteDescription][]) {
    it(`${id}: ${route.method.toUpperCase()} ${route.path}`, async () => {
      const response = await SCENARIOS[id](caller);
      const described = route.responses.find((candidate) => candidate.status === response.status);
      expect(described, `status ${response.status} is not described: ${JSON.stringify(response.body)}`).to.not.equal(undefined);
      const mediaType = String(response.headers['content-type'] ?? '').split(';')[0].trim();
      const content = described?.content?.find((candidate) => candidate.mediaType.split(';')[0] === mediaType);
      expect(content, `Content-Type ${mediaType} is not described`).to.not.equal(undefined);
      if (mediaType === 'application/json') {
        const validate = ajv.compile(content?.schema ?? {});
        expect(validate(response.body), `${JSON.stringify(validate.errors)} in ${JSON.stringify(response.body)}`).to.equal(true);
      }
      for (const header of Object.keys(described?.headers ?? {})) expect(response.headers).to.have.property(header.toLowerCase());
    });
  }

  it('answers errors in the documented envelope', async () => {
    const validate = ajv.compile(ERROR_ENVELOPE_SCHEMA);
    const failures = [
      await request(testApp.app).get('/api/v1/tools/models'),
      await request(testApp.app).post('/api/v1/common/tts-sync').set('X-API-Key', caller.apiKey).send({ model: 'espeak-ng', voice: 'en-us', text: 'Hi', speed: 9 }),
      await request(testApp.app).post('/api/v1/auth/register').set('Content-Type', 'application/json').send('{"email":'),
      await request(testApp.app).get('/api/v1/audio/download/nothing.mp3'),
    ];
    expect(failures.map((failure) => failure.status)).to.deep.equal([401, 400, 400, 404]);
    for (const failure of failures) expect(validate(failure.body), JSON.stringify(validate.errors)).to.equal(true);
  });

  it('answers /v1 errors in the documented OpenAI shape, at the documented statuses', async () => {
    const validate = ajv.compile(OPENAI_ERROR_SCHEMA);
    const document = (await request(testApp.app).get('/openapi.json')).body as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    const failures = [
      await request(testApp.app).get('/v1/models'),
      await request(testApp.app).get('/v1/models/nope').set('Authorization', `Bearer ${caller.apiKey}`),
      await request(testApp.app).post('/v1/audio/speech').set('Authorization', `Bearer ${caller.apiKey}`).send({ model: 'tts-1', voice: 'alloy', input: '' }),
    ];
    expect(failures.map((failure) => failure.status)).to.deep.equal([401, 404, 400]);
    for (const failure of failures) expect(validate(failure.body), JSON.stringify(validate.errors)).to.equal(true);
    expect(document.paths['/v1/models'].get.responses).to.have.property('401');
    expect(document.paths['/v1/models/{id}'].get.responses).to.have.property('404');
    expect(document.paths['/v1/audio/speech'].post.responses).to.have.property('400');
  });
});
