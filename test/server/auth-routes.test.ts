import { expect } from 'chai';
import request from 'supertest';
import { hashApiKey } from '../../core';
import { buildTestApp, expectErrorEnvelope, type TestApp } from './support/test-app';

describe('server /api/v1/auth', () => {
  let testApp: TestApp;
  beforeEach(async () => (testApp = await buildTestApp()));
  afterEach(() => testApp.close());

  it('registers an account and answers its key once', async () => {
    const response = await request(testApp.app)
      .post('/api/v1/auth/register')
      .send({ email: 'ada@example.com', password: 'password-123' })
      .expect(200)
      .expect('Content-Type', /application\/json/);
    expect(response.body).to.include({ success: true });
    expect(response.body.timestamp).to.be.a('number');
    expect(response.body.data.account).to.have.keys(['id', 'email']);
    expect(response.body.data.account.email).to.equal('ada@example.com');
    expect(response.body.data.apiKey).to.match(/^ttsg_/);
    expect(response.body.data.keyId).to.be.a('string');
    await request(testApp.app).get('/api/v1/tools/models').set('X-API-Key', response.body.data.apiKey).expect(200);
  });

  it('answers 409 for a duplicate email and 400 for a bad email or short password', async () => {
    await testApp.register('ada@example.com');
    const duplicate = await request(testApp.app).post('/api/v1/auth/register').send({ email: 'ada@example.com', password: 'password-123' }).expect(409);
    expectErrorEnvelope(duplicate.body, 'TTS_ERR_CONFLICT');
    const badEmail = await request(testApp.app).post('/api/v1/auth/register').send({ email: 'ada', password: 'password-123' }).expect(400);
    expect(expectErrorEnvelope(badEmail.body, 'TTS_ERR_VALIDATION').details[0]).to.include({ field: 'email' });
    const shortPassword = await request(testApp.app).post('/api/v1/auth/register').send({ email: 'bob@example.com', password: 'short' }).expect(400);
    expect(expectErrorEnvelope(shortPassword.body, 'TTS_ERR_VALIDATION').details[0]).to.include({ field: 'password' });
  });

  it('answers 403 when registration is closed', async () => {
    const closed = await buildTestApp({ registration: 'closed' });
    try {
      const response = await request(closed.app).post('/api/v1/auth/register').send({ email: 'ada@example.com', password: 'password-123' }).expect(403);
      expectErrorEnvelope(response.body, 'TTS_ERR_FORBIDDEN');
    } finally {
      await closed.close();
    }
  });

  it('logs in with a new key; a wrong password and an unknown email read the same 401', async () => {
    const registered = await testApp.register('ada@example.com');
    const login = await request(testApp.app).post('/api/v1/auth/login').send({ email: 'ada@example.com', password: 'password-123' }).expect(200);
    expect(login.body.data.apiKey).to.match(/^ttsg_/).and.not.equal(registered.apiKey);
    expect(login.body.data.account.id).to.equal(registered.accountId);
    const wrong = await request(testApp.app).post('/api/v1/auth/login').send({ email: 'ada@example.com', password: 'password-999' }).expect(401);
    const unknown = await request(testApp.app).post('/api/v1/auth/login').send({ email: 'bob@example.com', password: 'password-123' }).expect(401);
    expectErrorEnvelope(wrong.body, 'TTS_ERR_UNAUTHORIZED');
    expect(wrong.body.message).to.equal(unknown.body.message);
  });

  it('lists, creates and revokes keys; a revoked key stops at once', async () => {
    const { apiKey, keyId } = await testApp.register();
    const created = await request(testApp.app).post('/api/v1/auth/keys').set('X-API-Key', apiKey).send({ name: 'laptop' }).expect(200);
    const second = created.body.data as { id: string; apiKey: string; name: string };
    expect(second.name).to.equal('laptop');
    const listed = await request(testApp.app).get('/api/v1/auth/keys').set('X-API-Key', second.apiKey).expect(200);
    expect(listed.body.data.map((key: { id: string }) => key.id)).to.deep.equal([keyId, second.id]);
    const text = JSON.stringify(listed.body);
    for (const secret of [apiKey, second.apiKey, hashApiKey(apiKey), hashApiKey(second.apiKey)]) expect(text).to.not.include(secret);

    await request(testApp.app).delete(`/api/v1/auth/keys/${second.id}`).set('X-API-Key', apiKey).expect(200);
    const revoked = await request(testApp.app).get('/api/v1/auth/keys').set('X-API-Key', second.apiKey).expect(401);
    expectErrorEnvelope(revoked.body, 'TTS_ERR_UNAUTHORIZED');
    await request(testApp.app).get('/api/v1/auth/keys').set('X-API-Key', apiKey).expect(200);
  });

  it("answers 404 when revoking another account's key or an unknown one", async () => {
    const ada = await testApp.register();
    const bob = await testApp.register();
    const foreign = await request(testApp.app).delete(`/api/v1/auth/keys/${ada.keyId}`).set('X-API-Key', bob.apiKey).expect(404);
    expectErrorEnvelope(foreign.body, 'TTS_ERR_NOT_FOUND');
    await request(testApp.app).delete('/api/v1/auth/keys/no-such-key').set('X-API-Key', bob.apiKey).expect(404);
    await request(testApp.app).get('/api/v1/auth/keys').set('X-API-Key', ada.apiKey).expect(200);
  });

  it('answers an expired key\'s revocation with 404, before the sweep deletes it as after', async () => {
    await testApp.close();
    let clock = Date.now();
    testApp = await buildTestApp({ now: () => clock });
    const { apiKey } = await testApp.register();
    const created = await request(testApp.app).post('/api/v1/auth/keys').set('X-API-Key', apiKey).send({ name: 'short', expiresIn: 60 }).expect(200);
    clock += 60_000;
    const beforeSweep = await request(testApp.app).delete(`/api/v1/auth/keys/${created.body.data.id}`).set('X-API-Key', apiKey).expect(404);
    expect(expectErrorEnvelope(beforeSweep.body, 'TTS_ERR_NOT_FOUND').details[0]).to.include({ field: 'id' });
    expect(await testApp.accounts.sweepExpiredKeys()).to.equal(1);
    const afterSweep = await request(testApp.app).delete(`/api/v1/auth/keys/${created.body.data.id}`).set('X-API-Key', apiKey).expect(404);
    expect(afterSweep.body.error).to.deep.equal(beforeSweep.body.error);
    expect(afterSweep.body.message).to.equal(beforeSweep.body.message);
  });

  it('requires a key for the key endpoints and a name to create one', async () => {
    expectErrorEnvelope((await request(testApp.app).get('/api/v1/auth/keys').expect(401)).body, 'TTS_ERR_UNAUTHORIZED');
    expectErrorEnvelope((await request(testApp.app).post('/api/v1/auth/keys').send({ name: 'x' }).expect(401)).body, 'TTS_ERR_UNAUTHORIZED');
    const { apiKey } = await testApp.register();
    const missing = await request(testApp.app).post('/api/v1/auth/keys').set('X-API-Key', apiKey).expect(400);
    expect(expectErrorEnvelope(missing.body, 'TTS_ERR_VALIDATION').details[0]).to.include({ field: 'name', reason: 'required' });
  });

  it('validates the register body: missing field, wrong type, unknown field', async () => {
    const missing = await request(testApp.app).post('/api/v1/auth/register').send({ email: 'ada@example.com' }).expect(400);
    expect(missing.body.message).to.equal('password is required');
    const wrongType = await request(testApp.app).post('/api/v1/auth/register').send({ email: 'ada@example.com', password: 12345678 }).expect(400);
    expect(wrongType.body.error.details[0]).to.include({ field: 'password', reason: 'type' });
    const unknown = await request(testApp.app)
      .post('/api/v1/auth/register')
      .send({ email: 'ada@example.com', password: 'password-123', admin: true })
      .expect(400);
    expect(unknown.body.message).to.include('admin');
    expect(unknown.body.error.details[0]).to.include({ field: 'admin', reason: 'unknown field' });
  });

  it('never writes passwords or keys to the log', async () => {
    const { apiKey } = await testApp.register('ada@example.com');
    await request(testApp.app).post('/api/v1/auth/login').send({ email: 'ada@example.com', password: 'password-123' }).expect(200);
    await request(testApp.app).post('/api/v1/auth/login').send({ email: 'ada@example.com', password: 'wrong-password' }).expect(401);
    await request(testApp.app).get('/api/v1/auth/keys').set('X-API-Key', apiKey).expect(200);
    const logged = JSON.stringify(testApp.logs);
    expect(testApp.logs.length).to.be.greaterThan(3);
    expect(logged).to.not.include('password-123').and.not.include('wrong-password').and.not.include(apiKey);
  });
});
