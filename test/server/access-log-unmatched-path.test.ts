import { expect } from 'chai';
import request from 'supertest';
import { buildTestApp, type TestApp } from './support/test-app';

describe('server access log: an unmatched path under /v1', () => {
  let test: TestApp;
  before(async () => (test = await buildTestApp()));
  after(() => test.close());

  it('is logged as the client sent it, /v1 included (the router had cut its prefix: PUT /v1/audio/speech read as /audio/speech)', async () => {
    const { apiKey } = await test.register();
    await request(test.app).get('/v1/nope?x=1').set('Authorization', `Bearer ${apiKey}`).expect(404);
    await request(test.app).put('/v1/audio/speech').set('Authorization', `Bearer ${apiKey}`).expect(404);
    await request(test.app).get(`/v1/files/${'A1'.repeat(20)}`).set('Authorization', `Bearer ${apiKey}`).expect(404);
    const routes = test.logs.filter((entry) => entry.message === 'request' && String(entry.route).startsWith('(unmatched)')).map((entry) => `${String(entry.method)} ${String(entry.route)}`);
    expect(routes).to.deep.equal(['GET (unmatched) /v1/nope', 'PUT (unmatched) /v1/audio/speech', 'GET (unmatched) /v1/files/<masked>']);
  });
});
