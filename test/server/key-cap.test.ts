import { expect } from 'chai';
import request from 'supertest';
import { buildTestApp, expectErrorEnvelope, type TestApp } from './support/test-app';

const PASSWORD = 'password-123';

describe('server /api/v1/auth key cap (auth.maxKeysPerAccount)', () => {
  let testApp: TestApp;
  beforeEach(async () => (testApp = await buildTestApp({ maxKeysPerAccount: 3 })));
  afterEach(() => testApp.close());

  const login = async (email: string): Promise<{ apiKey: string; id: string }> => {
    const { apiKey, keyId } = (await request(testApp.app).post('/api/v1/auth/login').send({ email, password: PASSWORD }).expect(200)).body.data;
    return { apiKey, id: keyId };
  };
  const liveKeyIds = async (apiKey: string): Promise<string[]> =>
    (await request(testApp.app).get('/api/v1/auth/keys').set('X-API-Key', apiKey).expect(200)).body.data.map((key: { id: string }) => key.id);

  it('refuses POST /auth/keys at the cap with 409, saying how many and what to do, and makes nothing', async () => {
    const { apiKey } = await testApp.register('ada@example.com');
    for (const name of ['laptop', 'phone']) await request(testApp.app).post('/api/v1/auth/keys').set('X-API-Key', apiKey).send({ name }).expect(200);
    const before = await liveKeyIds(apiKey);
    const refused = await request(testApp.app).post('/api/v1/auth/keys').set('X-API-Key', apiKey).send({ name: 'one too many' }).expect(409);
    expect(expectErrorEnvelope(refused.body, 'TTS_ERR_CONFLICT').details[0]).to.include({ field: 'keys', reason: 'limit' });
    expect(refused.body.message).to.include('3 live API keys').and.include('the most it may have is 3').and.include('revoke one');
    expect(await liveKeyIds(apiKey)).to.deep.equal(before);
    // A revocation makes room again.
    await request(testApp.app).delete(`/api/v1/auth/keys/${before[1]}`).set('X-API-Key', apiKey).expect(200);
    await request(testApp.app).post('/api/v1/auth/keys').set('X-API-Key', apiKey).send({ name: 'replacement' }).expect(200);
  });

  it('lets a login at the cap in by revoking the oldest login key, which then answers 401', async () => {
    const registered = await testApp.register('ada@example.com');
    const first = await login('ada@example.com');
    const second = await login('ada@example.com');
    // Used (and so cached) before it is evicted: the eviction must reach the cache as a revocation does.
    await request(testApp.app).get('/api/v1/auth/keys').set('X-API-Key', first.apiKey).expect(200);
    const third = await login('ada@example.com');
    const evicted = await request(testApp.app).get('/api/v1/auth/keys').set('X-API-Key', first.apiKey).expect(401);
    expectErrorEnvelope(evicted.body, 'TTS_ERR_UNAUTHORIZED');
    expect(await liveKeyIds(third.apiKey)).to.deep.equal([registered.keyId, second.id, third.id]);
    await request(testApp.app).get('/api/v1/auth/keys').set('X-API-Key', registered.apiKey).expect(200);
  });

  it('refuses a login at the cap with the same 409 when no login key could make room', async () => {
    const { apiKey } = await testApp.register('ada@example.com');
    for (const name of ['laptop', 'phone']) await request(testApp.app).post('/api/v1/auth/keys').set('X-API-Key', apiKey).send({ name }).expect(200);
    const before = await liveKeyIds(apiKey);
    // More times than the login throttle's failures (5): the password was right, so no 429 follows.
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const refused = await request(testApp.app).post('/api/v1/auth/login').send({ email: 'ada@example.com', password: PASSWORD }).expect(409);
      expectErrorEnvelope(refused.body, 'TTS_ERR_CONFLICT');
      expect(refused.body.message).to.include('3 live API keys');
    }
    expect(await liveKeyIds(apiKey)).to.deep.equal(before);
    await request(testApp.app).delete(`/api/v1/auth/keys/${before[2]}`).set('X-API-Key', apiKey).expect(200);
    await login('ada@example.com');
  });
});
