import { expect } from 'chai';
import { eventually } from '../support/eventually';
import request from 'supertest';
import { buildTestApp, expectErrorEnvelope, type TestApp } from './support/test-app';

describe('server middleware', () => {
  let testApp: TestApp;
  beforeEach(async () => (testApp = await buildTestApp()));
  afterEach(() => testApp.close());

  it('generates a UUID request id and exposes it on every answer', async () => {
    const ok = await request(testApp.app).get('/api/v1/tools/models').expect(401);
    expect(ok.headers['x-request-id']).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const missing = await request(testApp.app).get('/nowhere').expect(404);
    expect(missing.headers['x-request-id']).to.be.a('string').and.not.equal(ok.headers['x-request-id']);
  });

  it('echoes a sane incoming X-Request-Id and replaces an unsafe one', async () => {
    const sane = await request(testApp.app).get('/nowhere').set('X-Request-Id', 'abc-123_DEF.4:5');
    expect(sane.headers['x-request-id']).to.equal('abc-123_DEF.4:5');
    for (const unsafe of ['has space', 'x'.repeat(129), '<script>', 'a\tb']) {
      const response = await request(testApp.app).get('/nowhere').set('X-Request-Id', unsafe);
      expect(response.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    }
  });

  it('answers unknown routes and methods with a 404 envelope', async () => {
    const unknown = await request(testApp.app).get('/api/v1/unknown').expect(404);
    expectErrorEnvelope(unknown.body, 'TTS_ERR_NOT_FOUND');
    expect(unknown.body.message).to.equal('No such route for GET /api/v1/unknown');
    expectErrorEnvelope((await request(testApp.app).put('/api/v1/common/tts-sync').expect(404)).body, 'TTS_ERR_NOT_FOUND');
  });

  it('writes one access-log line per request with id, method, route, status and latency', async () => {
    const { apiKey } = await testApp.register();
    testApp.logs.length = 0;
    await request(testApp.app).get('/api/v1/tools/voices/espeak-ng').set('X-API-Key', apiKey).set('X-Request-Id', 'log-me').expect(200);
    const lines = testApp.logs.filter((entry) => entry.message === 'request');
    expect(lines).to.have.length(1);
    expect(lines[0]).to.include({ requestId: 'log-me', method: 'GET', route: '/api/v1/tools/voices/:model', status: 200, level: 'info' });
    expect(lines[0].latencyMs).to.be.a('number').and.at.least(0);
    expect(JSON.stringify(testApp.logs)).to.not.include(apiKey);
  });

  it('logs the route pattern, not the capability file name, of downloads', async () => {
    const { fileName } = await testApp.audioStore.save(Buffer.from('x'), 'mp3');
    await request(testApp.app).get(`/api/v1/audio/download/${fileName}`).expect(200);
    await eventually(() => {
      expect(testApp.logs.some((entry) => entry.route === '/api/v1/audio/download/:file')).to.equal(true);
    });
    expect(JSON.stringify(testApp.logs)).to.not.include(fileName);
  });

  it('does not send X-Powered-By', async () => {
    const response = await request(testApp.app).get('/nowhere');
    expect(response.headers['x-powered-by']).to.equal(undefined);
  });
});
