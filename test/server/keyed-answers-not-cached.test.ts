import { expect } from 'chai';
import request from 'supertest';
import { buildTestApp, type TestApp } from './support/test-app';

/**
 * A key travels in X-API-Key, which shared caches do not treat as credentials (as they do
 * Authorization): an envelope answer without Cache-Control could be stored by a proxy and given
 * to another caller, another account's key list or usage included, or to one without a key.
 */
describe('server: envelope answers are never stored by caches', () => {
  let testApp: TestApp;
  afterEach(() => testApp.close());

  it('sends Cache-Control: no-store with every success envelope of /api/v1', async () => {
    testApp = await buildTestApp();
    const { apiKey } = await testApp.register();
    const keyed = (path: string) => request(testApp.app).get(path).set('X-API-Key', apiKey).expect(200);
    const answers: [string, request.Response][] = [
      ['keys', await keyed('/api/v1/auth/keys')],
      ['usage', await keyed('/api/v1/usage')],
      ['models', await keyed('/api/v1/tools/models')],
      ['voices', await keyed('/api/v1/tools/voices/espeak-ng')],
      ['tts-sync', await request(testApp.app).post('/api/v1/common/tts-sync').set('X-API-Key', apiKey).send({ model: 'espeak-ng', voice: 'en-us', text: 'Hello.' }).expect(200)],
      ['login', await request(testApp.app).post('/api/v1/auth/login').send({ email: 'user1@example.com', password: 'password-123' }).expect(200)],
    ];
    for (const [route, answer] of answers) expect(answer.headers['cache-control'], route).to.equal('no-store');
  });
});
