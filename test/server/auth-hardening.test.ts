import { expect } from 'chai';
import request from 'supertest';
import { buildTestApp, expectErrorEnvelope, type TestApp } from './support/test-app';

const DAY = 86_400_000;

describe('server /api/v1/auth hardening: throttling and key expiry', () => {
  let testApp: TestApp;
  let clock: number;
  afterEach(() => testApp.close());

  const login = (email: string, password: string, address = '203.0.113.7') =>
    request(testApp.app).post('/api/v1/auth/login').set('X-Forwarded-For', address).send({ email, password });

  describe('throttling', () => {
    beforeEach(async () => {
      testApp = await buildTestApp({ trustProxy: true, throttle: { failures: 5, addressFailures: 8, addressRegistrations: 1_000, windowMs: 15 * 60_000 } });
      await testApp.register('ada@example.com');
    });

    it('answers 429 with Retry-After after a handful of wrong passwords for one email, even to the right password', async () => {
      for (let attempt = 0; attempt < 5; attempt += 1) expectErrorEnvelope((await login('ada@example.com', 'wrong-password').expect(401)).body, 'TTS_ERR_UNAUTHORIZED');
      const blocked = await login('ada@example.com', 'password-123', '198.51.100.1').expect(429);
      expectErrorEnvelope(blocked.body, 'TTS_ERR_RATE_LIMITED');
      expect(Number(blocked.headers['retry-after'])).to.be.within(1, 900);
      // Another account is not held back by Ada's guesser.
      await testApp.register('bob@example.com');
      await login('bob@example.com', 'password-123', '198.51.100.1').expect(200);
    });

    it('throttles one client address across emails, unknown ones included', async () => {
      for (let attempt = 0; attempt < 8; attempt += 1) await login(`nobody${attempt}@example.com`, 'whatever-password').expect(401);
      const blocked = await login('ada@example.com', 'password-123').expect(429);
      expect(blocked.headers['retry-after']).to.match(/^\d+$/);
      await login('ada@example.com', 'password-123', '203.0.113.8').expect(200);
    });

    it('throttles repeated failed registrations too', async () => {
      for (let attempt = 0; attempt < 5; attempt += 1) {
        await request(testApp.app).post('/api/v1/auth/register').set('X-Forwarded-For', '203.0.113.9').send({ email: 'ada@example.com', password: 'password-123' }).expect(409);
      }
      const blocked = await request(testApp.app).post('/api/v1/auth/register').set('X-Forwarded-For', '203.0.113.10').send({ email: 'ada@example.com', password: 'password-123' }).expect(429);
      expectErrorEnvelope(blocked.body, 'TTS_ERR_RATE_LIMITED');
    });

    it('limits the accounts one client address registers, answering 429 with the envelope and Retry-After', async () => {
      await testApp.close();
      testApp = await buildTestApp({ trustProxy: true, throttle: { failures: 5, addressFailures: 8, addressRegistrations: 3, windowMs: 15 * 60_000 } });
      const registerFrom = (email: string, address: string) =>
        request(testApp.app).post('/api/v1/auth/register').set('X-Forwarded-For', address).send({ email, password: 'password-123' });
      // A taken email is no account made: it does not use up the address's registrations.
      await registerFrom('first@example.com', '2001:db8:7:7::1').expect(200);
      await registerFrom('first@example.com', '2001:db8:7:7::1').expect(409);
      await registerFrom('second@example.com', '2001:db8:7:7::2').expect(200);
      await registerFrom('third@example.com', '2001:db8:7:7:abcd::3').expect(200);
      // The same /64, another address in it.
      const refused = await registerFrom('fourth@example.com', '2001:db8:7:7::4').expect(429);
      const error = expectErrorEnvelope(refused.body, 'TTS_ERR_RATE_LIMITED');
      expect(error.details).to.deep.equal([{ reason: 'too_many_registrations', action: 'register' }]);
      expect(Number(refused.headers['retry-after'])).to.be.within(1, 900);
      // Another network registers; the refused email was not taken.
      await registerFrom('fourth@example.com', '2001:db8:7:8::1').expect(200);
      await login('first@example.com', 'password-123', '2001:db8:7:7::1').expect(200);
    });

    it('keeps answering 403 to registrations while registration is closed: they are no failed attempts', async () => {
      await testApp.close();
      testApp = await buildTestApp({ trustProxy: true, registration: 'closed', throttle: { failures: 5, addressFailures: 8, addressRegistrations: 1_000, windowMs: 15 * 60_000 } });
      // Past both the email's (5) and the address's (8) limit.
      for (let attempt = 0; attempt < 12; attempt += 1) {
        const refused = await request(testApp.app).post('/api/v1/auth/register').set('X-Forwarded-For', '203.0.113.11').send({ email: 'ada@example.com', password: 'password-123' }).expect(403);
        expectErrorEnvelope(refused.body, 'TTS_ERR_FORBIDDEN');
        expect(refused.headers['retry-after']).to.equal(undefined);
      }
    });

    it('lets no more wrong passwords through than the limit when they arrive at once (the count is taken before the password is checked)', async () => {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => login('ada@example.com', 'wrong-password', `198.51.100.${50 + index}`)));
      const statuses = answers.map((answer) => answer.status);
      // Five guesses a window for one email, however they are sent.
      expect(statuses.filter((status) => status === 401)).to.have.length(5);
      expect(statuses.filter((status) => status === 429)).to.have.length(15);
    });

    it('clears the count of an email on a successful login', async () => {
      for (let attempt = 0; attempt < 4; attempt += 1) await login('ada@example.com', 'wrong-password').expect(401);
      await login('ada@example.com', 'password-123').expect(200);
      for (let attempt = 0; attempt < 4; attempt += 1) await login('ada@example.com', 'wrong-password', '198.51.100.2').expect(401);
      await login('ada@example.com', 'password-123', '198.51.100.2').expect(200);
    });
  });

  describe('key expiry', () => {
    beforeEach(async () => {
      clock = Date.UTC(2025, 5, 1);
      testApp = await buildTestApp({ now: () => clock, loginKeyTtlMs: 30 * DAY });
    });

    it('gives login keys loginKeyTtl, shows expiresAt in listings, answers 401 once expired', async () => {
      const { apiKey: registrationKey } = await testApp.register('ada@example.com');
      const loggedIn = await login('ada@example.com', 'password-123').expect(200);
      expect(loggedIn.body.data.expiresAt).to.equal(clock + 30 * DAY);
      const listed = await request(testApp.app).get('/api/v1/auth/keys').set('X-API-Key', loggedIn.body.data.apiKey).expect(200);
      expect(listed.body.data.map((key: { name: string; expiresAt: number | null }) => [key.name, key.expiresAt])).to.deep.equal([
        ['default', null],
        ['login', clock + 30 * DAY],
      ]);
      clock += 30 * DAY;
      const expired = await request(testApp.app).get('/api/v1/auth/keys').set('X-API-Key', loggedIn.body.data.apiKey).expect(401);
      expectErrorEnvelope(expired.body, 'TTS_ERR_UNAUTHORIZED');
      const stillListed = await request(testApp.app).get('/api/v1/auth/keys').set('X-API-Key', registrationKey).expect(200);
      expect(stillListed.body.data.map((key: { name: string }) => key.name)).to.deep.equal(['default']);
      expect(await testApp.accounts.sweepExpiredKeys()).to.equal(1);
    });

    it('takes an optional expiresIn on POST /auth/keys and checks it', async () => {
      const { apiKey } = await testApp.register('ada@example.com');
      const created = await request(testApp.app).post('/api/v1/auth/keys').set('X-API-Key', apiKey).send({ name: 'ci', expiresIn: 3600 }).expect(200);
      expect(created.body.data.expiresAt).to.equal(clock + 3_600_000);
      const forever = await request(testApp.app).post('/api/v1/auth/keys').set('X-API-Key', apiKey).send({ name: 'laptop' }).expect(200);
      expect(forever.body.data.expiresAt).to.equal(null);
      for (const expiresIn of [10, 'soon', 1.5]) {
        const refused = await request(testApp.app).post('/api/v1/auth/keys').set('X-API-Key', apiKey).send({ name: 'bad', expiresIn }).expect(400);
        expect(expectErrorEnvelope(refused.body, 'TTS_ERR_VALIDATION').details[0]).to.include({ field: 'expiresIn' });
      }
      clock += 3_600_000;
      await request(testApp.app).get('/api/v1/tools/models').set('X-API-Key', created.body.data.apiKey).expect(401);
      await request(testApp.app).get('/api/v1/tools/models').set('X-API-Key', forever.body.data.apiKey).expect(200);
    });

    it("lets a login's expiring key make an app's lasting key, which outlives it (keys have no scopes)", async () => {
      await testApp.register('ada@example.com');
      const loggedIn = await login('ada@example.com', 'password-123').expect(200);
      const appKey = await request(testApp.app).post('/api/v1/auth/keys').set('X-API-Key', loggedIn.body.data.apiKey).send({ name: 'app' }).expect(200);
      expect(appKey.body.data.expiresAt).to.equal(null);
      clock += 30 * DAY;
      await request(testApp.app).get('/api/v1/tools/models').set('X-API-Key', loggedIn.body.data.apiKey).expect(401);
      await request(testApp.app).get('/api/v1/tools/models').set('X-API-Key', appKey.body.data.apiKey).expect(200);
    });
  });
});
