import { expect } from 'chai';
import request, { type Response } from 'supertest';
import { GatewayError } from '../../../core';
import type { StreamFunction } from '../../../server/app-dependencies';
import { appliedPlan } from '../../support/applied-plan';
import { buildTestApp, type TestApp } from '../support/test-app';

/** The headers of the API's own contract: a client (or a generated one) reads them. */
const API_HEADERS = ['x-request-id', 'x-tts-applied', 'x-tts-cache', 'x-tts-served-by', 'x-tts-instructions', 'retry-after', 'retry-after-ms', 'ratelimit-policy', 'ratelimit', 'x-should-retry', 'etag', 'last-modified', 'accept-ranges', 'content-range', 'content-disposition'];

type DocumentedResponse = { headers?: Record<string, { required?: boolean }> };
type Document = { paths: Record<string, Record<string, { responses: Record<string, DocumentedResponse> }>>; components: { headers: Record<string, { required?: boolean }> } };

/** A stream as a cached model that takes no instructions answers it: every optional synthesis header is set. */
const streamWithEveryHeader: StreamFunction = async (synthesisRequest) => {
  async function* chunks() {
    yield Buffer.from('audio');
  }
  return { format: synthesisRequest.format, applied: appliedPlan(), provider: 'fake', servedBy: 'tts-1/alloy', instructionsIgnored: synthesisRequest.instructions !== undefined, cache: 'miss', progress: { bytes: 5 }, chunks: chunks() };
};

describe('GET /openapi.json documents the headers the routes really answer', () => {
  let testApp: TestApp;
  let document: Document;
  afterEach(() => testApp.close());

  /** Every API header of `answer` is named in the document's response for its path, method and status. */
  function expectDocumented(answer: Response, path: string, method: string): void {
    const documented = document.paths[path][method].responses[String(answer.status)];
    expect(documented, `${method} ${path} ${answer.status}`).to.not.equal(undefined);
    const names = Object.keys(documented.headers ?? {}).map((name) => name.toLowerCase());
    const sent = Object.keys(answer.headers).filter((name) => API_HEADERS.includes(name));
    for (const name of sent) expect(names, `${method} ${path} ${answer.status} sends ${name}`).to.include(name);
  }

  it('synthesis answers and refusals: X-TTS-*, RateLimit-Policy, RateLimit, Retry-After, and x-should-retry on /v1', async () => {
    testApp = await buildTestApp({
      limits: { requestsPerMinute: 2, perKey: {} },
      stream: streamWithEveryHeader,
      synthesize: async (synthesisRequest) => {
        if (synthesisRequest.text === 'refused') throw new GatewayError('TTS_ERR_UPSTREAM_AUTH', 'the provider refused the key');
        return { fileName: 'x.mp3', url: 'http://localhost/x.mp3', size: 5, format: 'mp3', applied: appliedPlan(), provider: 'fake', servedBy: 'espeak-ng/en-us', instructionsIgnored: false, cache: 'miss' } as never;
      },
    });
    document = (await request(testApp.app).get('/openapi.json').expect(200)).body as Document;
    const first = await testApp.register();
    const second = await testApp.register();
    const sync = await request(testApp.app).post('/api/v1/common/tts-sync').set('X-API-Key', first.apiKey).send({ model: 'espeak-ng', voice: 'en-us', text: 'Hi' });
    expect(sync.status).to.equal(200);
    expect(sync.headers).to.include.keys('ratelimit-policy', 'ratelimit', 'x-tts-served-by');
    expectDocumented(sync, '/api/v1/common/tts-sync', 'post');
    const stream = await request(testApp.app).post('/api/v1/common/tts-stream').set('X-API-Key', first.apiKey).send({ model: 'espeak-ng', voice: 'en-us', text: 'Hi' });
    expectDocumented(stream, '/api/v1/common/tts-stream', 'post');
    const limited = await request(testApp.app).post('/api/v1/common/tts-sync').set('X-API-Key', first.apiKey).send({ model: 'espeak-ng', voice: 'en-us', text: 'Hi' });
    expect(limited.status).to.equal(429);
    expectDocumented(limited, '/api/v1/common/tts-sync', 'post');

    const speech = await request(testApp.app).post('/v1/audio/speech').set('Authorization', `Bearer ${second.apiKey}`).send({ model: 'tts-1', voice: 'alloy', input: 'Hi', instructions: 'calm' });
    expect(speech.status).to.equal(200);
    expect(speech.headers).to.include.keys('x-tts-cache', 'x-tts-instructions', 'ratelimit');
    expectDocumented(speech, '/v1/audio/speech', 'post');
    const speechLimited = await request(testApp.app).post('/v1/audio/speech').set('Authorization', `Bearer ${second.apiKey}`).send({ model: 'tts-1', voice: 'alloy', input: 'Hi' });
    const speechRefused = await request(testApp.app).post('/v1/audio/speech').set('Authorization', `Bearer ${second.apiKey}`).send({ model: 'tts-1', voice: 'alloy', input: 'Hi' });
    expect(speechRefused.status).to.equal(429);
    expectDocumented(speechLimited, '/v1/audio/speech', 'post');
    expectDocumented(speechRefused, '/v1/audio/speech', 'post');

    const third = await testApp.register();
    const upstreamAuth = await request(testApp.app).post('/api/v1/common/tts-sync').set('X-API-Key', third.apiKey).send({ model: 'espeak-ng', voice: 'en-us', text: 'refused' });
    expect(upstreamAuth.status).to.equal(502);
    expectDocumented(upstreamAuth, '/api/v1/common/tts-sync', 'post');
    const unknownKey = await request(testApp.app).get('/v1/models').set('Authorization', 'Bearer nope');
    expectDocumented(unknownKey, '/v1/models', 'get');
  });

  it('/v1 errors the SDKs must not retry carry x-should-retry: false, and the document says so', async () => {
    testApp = await buildTestApp({ stream: async () => Promise.reject(new GatewayError('TTS_ERR_UPSTREAM_AUTH', 'the provider refused the key')) });
    document = (await request(testApp.app).get('/openapi.json').expect(200)).body as Document;
    const { apiKey } = await testApp.register();
    const refused = await request(testApp.app).post('/v1/audio/speech').set('Authorization', `Bearer ${apiKey}`).send({ model: 'tts-1', voice: 'alloy', input: 'Hi' });
    expect(refused.status).to.equal(502);
    expect(refused.headers['x-should-retry']).to.equal('false');
    expectDocumented(refused, '/v1/audio/speech', 'post');
  });

  it('downloads: ETag, Last-Modified, Accept-Ranges, Content-Disposition, and Content-Range on 206 and 416', async () => {
    testApp = await buildTestApp();
    document = (await request(testApp.app).get('/openapi.json').expect(200)).body as Document;
    const { apiKey } = await testApp.register();
    const synthesis = await request(testApp.app).post('/api/v1/common/tts-sync').set('X-API-Key', apiKey).send({ model: 'espeak-ng', voice: 'en-us', text: 'Hello there' });
    const path = new URL(synthesis.body.data.audio_url).pathname;
    const whole = await request(testApp.app).get(path).expect(200);
    const part = await request(testApp.app).get(path).set('Range', 'bytes=0-3').expect(206);
    const unchanged = await request(testApp.app).get(path).set('If-None-Match', whole.headers.etag).expect(304);
    const outside = await request(testApp.app).get(path).set('Range', 'bytes=9999-').expect(416);
    for (const answer of [whole, part, unchanged, outside]) expectDocumented(answer, '/api/v1/audio/download/{file}', 'get');
    expectDocumented(await request(testApp.app).head(path).expect(200), '/api/v1/audio/download/{file}', 'head');
    // Sent on every answer: marked required, so generated clients may rely on them.
    expect(document.components.headers.XRequestId.required).to.equal(true);
    expect(document.paths['/api/v1/audio/download/{file}'].get.responses['206'].headers?.['Content-Range']?.required).to.equal(true);
  });

  it('readiness: the Retry-After of its 503', async () => {
    testApp = await buildTestApp({ stopping: () => true });
    document = (await request(testApp.app).get('/openapi.json').expect(200)).body as Document;
    const notReady = await request(testApp.app).get('/health/ready').expect(503);
    expect(notReady.headers).to.have.property('retry-after');
    expectDocumented(notReady, '/health/ready', 'get');
  });
});
