import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { startFaultGateway, type FaultGateway } from '../../e2e/fault-gateway';

type OpenApiPaths = Record<string, Record<string, { responses: Record<string, unknown> }>>;

/**
 * A provider whose voice listing is rate limited (Kokoro-FastAPI behind a proxy, ElevenLabs'
 * GET /v1/voices): what the voice-list routes then answer must be in /openapi.json.
 */
describe('server /openapi.json: the statuses the voice lists really answer', function () {
  this.timeout(30_000);
  let upstream: Server;
  let subject: FaultGateway;

  before(async () => {
    upstream = createServer((incoming, answer) => {
      const path = new URL(incoming.url ?? '/', 'http://stand-in').pathname;
      answer.setHeader('Content-Type', 'application/json');
      if (path === '/v1/models') answer.end(JSON.stringify({ object: 'list', data: [{ id: 'tts-1', object: 'model' }] }));
      else if (path === '/v1/audio/voices') {
        answer.statusCode = 429;
        answer.setHeader('Retry-After', '7');
        answer.end(JSON.stringify({ error: { message: 'Too many requests', type: 'rate_limit_error' } }));
      } else {
        answer.statusCode = 404;
        answer.end('{}');
      }
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    subject = await startFaultGateway(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, {}, { voices: undefined });
  });
  after(async () => {
    await subject?.dispose();
    upstream?.closeAllConnections();
    await new Promise((resolve) => upstream?.close(resolve));
  });

  it('documents the 429 that GET /api/v1/tools/voices/{model} and GET /v1/audio/voices answer', async () => {
    const document = (await request(subject.gateway.app).get('/openapi.json').expect(200)).body as { paths: OpenApiPaths };
    const spec = await request(subject.gateway.app).get('/api/v1/tools/voices/tts-1').set('X-API-Key', subject.apiKey);
    const openAi = await request(subject.gateway.app).get('/v1/audio/voices?model=tts-1').set('Authorization', `Bearer ${subject.apiKey}`);
    expect([spec.status, openAi.status]).to.deep.equal([429, 429]);
    expect(spec.headers['retry-after']).to.equal('7');
    expect(Object.keys(document.paths['/api/v1/tools/voices/{model}'].get.responses), 'GET /api/v1/tools/voices/{model}').to.include(String(spec.status));
    expect(Object.keys(document.paths['/v1/audio/voices'].get.responses), 'GET /v1/audio/voices').to.include(String(openAi.status));
  });
});
