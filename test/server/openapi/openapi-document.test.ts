import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import request from 'supertest';
import { API_ROUTES } from '../../../server/api/api-routes';
import { OPENAI_ROUTES } from '../../../server/api/openai-routes';
import type { RouteDescription } from '../../../server/api/route-description';
import { GatewayError } from '../../../core';
import { buildOpenApiDocument } from '../../../server/openapi/build-openapi-document';
import { createRequestAjv } from '../../../server/validation/ajv-instance';
import { TTS_SYNC_SCHEMA } from '../../../server/validation/request-schemas';
import { buildTestApp, type TestApp } from '../support/test-app';

type Operation = {
  operationId: string;
  security: Record<string, string[]>[];
  parameters?: { name: string; in: string; required: boolean }[];
  requestBody?: { content: Record<string, { schema: unknown; example: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: { $ref?: string }; example?: { error: { code: string } } }> }>;
};
type Document = { openapi: string; paths: Record<string, Record<string, Operation>>; components: Record<string, Record<string, unknown>> };

describe('server GET /openapi.json', () => {
  let testApp: TestApp;
  let document: Document;

  before(async () => {
    testApp = await buildTestApp();
    document = (await request(testApp.app).get('/openapi.json').expect(200).expect('Content-Type', /application\/json/)).body as Document;
  });
  after(() => testApp.close());

  it('is a valid OpenAPI 3.1 document (checked by an independent validator)', async () => {
    const result = await new Validator().validate(document as unknown as Record<string, unknown>);
    expect(result.errors, JSON.stringify(result.errors)).to.equal(undefined);
    expect(result.valid).to.equal(true);
    expect(document.openapi).to.equal('3.1.0');
  });

  it('would be caught by that validator if it were broken', async () => {
    const broken = structuredClone(document);
    (broken.components.securitySchemes.ApiKeyAuth as { in: string }).in = 'body';
    expect((await new Validator().validate(broken as unknown as Record<string, unknown>)).valid).to.equal(false);
  });

  it('describes every route of the route tables, /api/v1 and /v1, with its method and an {param} path', () => {
    for (const [id, route] of Object.entries({ ...API_ROUTES, ...OPENAI_ROUTES }) as [string, RouteDescription][]) {
      const path = route.path.replace(/[:*]([A-Za-z0-9_]+)/g, '{$1}');
      expect(document.paths[path]?.[route.method]?.operationId, `${route.method} ${path}`).to.equal(id);
    }
    expect(document.paths['/api/v1/tools/voices/{model}'].get.parameters).to.deep.include({
      name: 'model',
      in: 'path',
      description: 'A name from the model list',
      required: true,
      schema: { type: 'string' },
      example: 'espeak-ng',
    });
    expect(document.paths['/api/v1/audio/download/{file}'].head.operationId).to.equal('downloadAudioHead');
  });

  it('offers both security schemes and asks for a key exactly where the routes do', async () => {
    expect(document.components.securitySchemes).to.deep.include({
      ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key (`ttsg_…`) from registration, login or the CLI' },
    });
    expect(document.components.securitySchemes.BearerAuth).to.include({ type: 'http', scheme: 'bearer' });
    const keyed = [{ ApiKeyAuth: [] }, { BearerAuth: [] }];
    expect(document.paths['/api/v1/tools/models'].get.security).to.deep.equal(keyed);
    expect(document.paths['/api/v1/auth/register'].post.security).to.deep.equal([]);
    // Documented as keyless: indeed answered without a key.
    await request(testApp.app).get('/health/live').expect(200);
    await request(testApp.app).get('/api/v1/tools/models').expect(401);
    expect(document.paths['/api/v1/audio/download/{file}'].get.security).to.deep.equal([]);
    expect(document.paths['/api/v1/audio/download/{file}'].get.responses['401']).to.equal(undefined);
  });

  it('marks downloads as keyed when the config requires a key for them', async () => {
    const keyedDownloads = await buildTestApp({ downloadRequiresKey: true });
    try {
      const keyedDocument = (await request(keyedDownloads.app).get('/openapi.json').expect(200)).body as Document;
      expect(keyedDocument.paths['/api/v1/audio/download/{file}'].get.security).to.have.length(2);
      expect(keyedDocument.paths['/api/v1/audio/download/{file}'].get.responses).to.have.property('401');
    } finally {
      await keyedDownloads.close();
    }
  });

  it('uses the very schemas the routes validate with, and examples they accept', () => {
    const body = document.paths['/api/v1/common/tts-sync'].post.requestBody?.content['application/json'];
    expect(body?.schema).to.deep.equal(TTS_SYNC_SCHEMA);
    const ajv = createRequestAjv();
    for (const [id, route] of Object.entries({ ...API_ROUTES, ...OPENAI_ROUTES }) as [string, RouteDescription][]) {
      if (!route.requestBody) continue;
      const validate = ajv.compile(route.requestBody.schema);
      expect(validate(structuredClone(route.requestBody.example)), `${id}: ${JSON.stringify(validate.errors)}`).to.equal(true);
    }
  });

  it('documents error answers in the envelope, grouped by status, with the codes each route can give', () => {
    const responses = document.paths['/api/v1/common/tts-sync'].post.responses;
    expect(Object.keys(responses)).to.deep.equal(['200', '400', '401', '403', '404', '413', '422', '429', '500', '502', '503', '504', '507']);
    expect(responses['404'].content?.['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/ErrorEnvelope' });
    expect(responses['404'].content?.['application/json'].example?.error.code).to.equal('TTS_ERR_MODEL_NOT_FOUND');
    expect(Object.keys(document.paths['/api/v1/tools/models'].get.responses)).to.deep.equal(['200', '401', '500', '503']);
    expect(document.components.schemas).to.have.keys('ErrorEnvelope', 'OpenAiError');
  });

  it("documents the download's 503, a store that fails or does not start sending within storage.readTimeout, with Retry-After", () => {
    for (const method of ['get', 'head']) {
      const responses = document.paths['/api/v1/audio/download/{file}'][method].responses;
      expect(Object.keys(responses), method).to.deep.equal(['200', '206', '304', '404', '412', '416', '500', '503']);
      expect(responses['503'].description).to.equal('`TTS_ERR_UNAVAILABLE`');
      expect(responses['503'] as unknown).to.have.nested.property('headers.Retry-After');
    }
  });

  it('documents the statuses the synthesis routes really answer: audio too long (413), storage full on tts-sync (507)', async () => {
    const failing = await buildTestApp({
      synthesize: async (synthesisRequest) => {
        if (synthesisRequest.text === 'long') throw new GatewayError('TTS_ERR_AUDIO_TOO_LONG', 'too long');
        throw new GatewayError('TTS_ERR_STORAGE_FULL', 'full', { retryAfterSeconds: 60 });
      },
      stream: async () => {
        throw new GatewayError('TTS_ERR_AUDIO_TOO_LONG', 'too long');
      },
    });
    try {
      const { apiKey } = await failing.register();
      const body = { model: 'espeak-ng', voice: 'en-us', text: 'Hi' };
      const full = await request(failing.app).post('/api/v1/common/tts-sync').set('X-API-Key', apiKey).send(body).expect(507);
      expect(full.headers['retry-after']).to.equal('60');
      await request(failing.app).post('/api/v1/common/tts-sync').set('X-API-Key', apiKey).send({ ...body, text: 'long' }).expect(413);
      await request(failing.app).post('/api/v1/common/tts-stream').set('X-API-Key', apiKey).send(body).expect(413);
      await request(failing.app).post('/v1/audio/speech').set('X-API-Key', apiKey).send({ model: 'tts-1', voice: 'alloy', input: 'Hi' }).expect(413);
    } finally {
      await failing.close();
    }
    const sync = document.paths['/api/v1/common/tts-sync'].post.responses;
    expect(sync['507']?.description).to.equal('`TTS_ERR_STORAGE_FULL`');
    expect(sync['507'] as unknown).to.have.nested.property('headers.Retry-After');
    for (const [path, operation] of [['/api/v1/common/tts-sync', document.paths['/api/v1/common/tts-sync'].post], ['/api/v1/common/tts-stream', document.paths['/api/v1/common/tts-stream'].post], ['/v1/audio/speech', document.paths['/v1/audio/speech'].post]] as const) {
      expect(operation.responses['413'].description, path).to.include('`TTS_ERR_AUDIO_TOO_LONG`');
    }
  });

  it("documents the key check's 503 (an unknown key's lookup in an account database that does not answer in time) with Retry-After on every keyed route, and the routes answer it", async () => {
    for (const [id, route] of Object.entries({ ...API_ROUTES, ...OPENAI_ROUTES }) as [string, RouteDescription][]) {
      const responses = document.paths[route.path.replace(/[:*]([A-Za-z0-9_]+)/g, '{$1}')][route.method].responses;
      if (route.security !== 'key') continue;
      expect(responses, id).to.have.property('503');
      expect(responses['503'].description, id).to.include('`TTS_ERR_UNAVAILABLE`');
      expect(responses['503'] as unknown, id).to.have.nested.property('headers.Retry-After');
    }
    expect(Object.keys(document.paths['/v1/models'].get.responses)).to.deep.equal(['200', '401', '500', '503']);
    expect(Object.keys(document.paths['/v1/models/{id}'].get.responses)).to.deep.equal(['200', '401', '404', '500', '503']);
    expect(document.paths['/health/live'].get.responses).to.not.have.property('503');
    const unanswered = await buildTestApp();
    try {
      unanswered.store.findApiKeyByHash = () => Promise.reject(new GatewayError('TTS_ERR_UNAVAILABLE', 'The account database is unavailable: it did not answer within 5 s'));
      const unknownKey = `ttsg_${'x'.repeat(43)}`;
      for (const path of ['/api/v1/tools/models', '/v1/models', '/v1/models/tts-1']) {
        const answer = await request(unanswered.app).get(path).set('Authorization', `Bearer ${unknownKey}`);
        expect(answer.status, path).to.equal(503);
        expect(answer.headers['retry-after'], path).to.equal('1');
      }
    } finally {
      await unanswered.close();
    }
  });

  it('names the public base URL as the server when one is configured', async () => {
    expect(document).to.not.have.property('servers');
    const withBase = await buildTestApp({ publicBaseUrl: 'https://tts.example.com' });
    try {
      const based = (await request(withBase.app).get('/openapi.json').expect(200)).body as { servers: unknown };
      expect(based.servers).to.deep.equal([{ url: 'https://tts.example.com' }]);
    } finally {
      await withBase.close();
    }
  });
});

describe('buildOpenApiDocument', () => {
  const options = { version: '1.2.3', downloadRequiresKey: false };
  const speech: RouteDescription = {
    method: 'post',
    path: '/v1/audio/speech',
    tag: 'OpenAI-compatible',
    summary: 'Speech, as OpenAI',
    security: 'key',
    errorFormat: 'openai',
    requestBody: { schema: { type: 'object', properties: { input: { type: 'string' } } }, example: { input: 'Hi' } },
    responses: [{ status: 200, description: 'Audio', content: [{ mediaType: 'audio/mpeg', schema: { type: 'string', contentMediaType: 'audio/mpeg' } }] }],
    errors: ['TTS_ERR_MODEL_NOT_FOUND'],
  };

  it("gives an OpenAI-style route the OpenAI error body at OpenAI's statuses, and the document stays valid", async () => {
    const document = buildOpenApiDocument({ speech: { ...speech, errors: ['TTS_ERR_MODEL_NOT_FOUND', 'TTS_ERR_VOICE_NOT_FOUND'] } }, options) as unknown as Document;
    const operation = document.paths['/v1/audio/speech'].post;
    expect(operation.responses['404'].content?.['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/OpenAiError' });
    expect(operation.responses['404'].description).to.equal('`TTS_ERR_MODEL_NOT_FOUND`');
    // An unknown voice is a 400 in OpenAI's API (a 404 on /api/v1).
    expect(operation.responses['400'].description).to.include('`TTS_ERR_VOICE_NOT_FOUND`');
    expect(operation.responses['401'].content?.['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/OpenAiError' });
    const result = await new Validator().validate(document as unknown as Record<string, unknown>);
    expect(result.valid, JSON.stringify(result.errors)).to.equal(true);
  });

  it('refuses a route whose path parameter is not described', () => {
    const model: RouteDescription = { ...speech, method: 'get', path: '/v1/models/:id', requestBody: undefined };
    expect(() => buildOpenApiDocument({ model }, options)).to.throw('Route model (/v1/models/:id) does not describe its path parameter id');
  });

  it('never shares schema objects with the routes (the document may be changed without touching validation)', () => {
    const document = buildOpenApiDocument(API_ROUTES, options) as unknown as Document;
    const schema = document.paths['/api/v1/common/tts-sync'].post.requestBody?.content['application/json'].schema;
    expect(schema).to.deep.equal(TTS_SYNC_SCHEMA);
    expect(schema).to.not.equal(TTS_SYNC_SCHEMA);
  });
});
