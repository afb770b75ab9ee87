import { expect } from 'chai';
import request from 'supertest';
import { upstreamError } from '../../core';
import { maskedPath } from '../../server/middleware/masked-path';
import { buildTestApp, expectErrorEnvelope, type TestApp } from './support/test-app';

describe('server: audio_url from publicBaseUrl or a checked Host', () => {
  let test: TestApp;
  afterEach(() => test.close());

  const synthesize = (host: string, apiKey: string) =>
    request(test.app).post('/api/v1/common/tts-sync').set('X-API-Key', apiKey).set('Host', host).send({ model: 'espeak-ng', voice: 'en-us', text: 'Hello.' });

  it('builds the link on a plain Host with a port', async () => {
    test = await buildTestApp();
    const { apiKey } = await test.register();
    const answer = await synthesize('Tts.Example.com:8443', apiKey).expect(200);
    expect(answer.body.data.audio_url).to.match(/^http:\/\/tts\.example\.com:8443\/api\/v1\/audio\/download\/[A-Za-z0-9_-]{32}\.mp3$/);
  });

  for (const [label, host] of [
    ['user information', 'localhost:8080@evil.example'],
    ['a path', 'localhost:8080/evil'],
    ['a port out of range', 'localhost:99999'],
    ['a port with a leading zero', 'localhost:08080'],
    ['a port that is no number', 'localhost:http'],
    ['a backslash', 'evil.example\\@localhost'],
  ] as const) {
    it(`refuses a Host with ${label} with 400 before any synthesis`, async () => {
      test = await buildTestApp();
      const { apiKey } = await test.register();
      const answer = await synthesize(host, apiKey).expect(400);
      const error = expectErrorEnvelope(answer.body, 'TTS_ERR_VALIDATION');
      expect(error.details[0]).to.include({ field: 'Host' });
      expect(test.synthesisCalls).to.have.length(0);
      expect(JSON.stringify(answer.body)).to.not.include('evil');
    });
  }

  it('refuses an X-Forwarded-Proto that is not http or https with 400, so it cannot point the link at another host', async () => {
    test = await buildTestApp({ trustProxy: true });
    const { apiKey } = await test.register();
    const forged = await synthesize('localhost:8080', apiKey).set('X-Forwarded-Proto', 'https://evil.example/x?').expect(400);
    expect(expectErrorEnvelope(forged.body, 'TTS_ERR_VALIDATION').details[0]).to.include({ field: 'X-Forwarded-Proto' });
    expect(JSON.stringify(forged.body)).to.not.include('evil');
    await synthesize('localhost:8080', apiKey).set('X-Forwarded-Proto', 'javascript').expect(400);
    expect(test.synthesisCalls).to.have.length(0);
    const proxied = await synthesize('localhost:8080', apiKey).set('X-Forwarded-Proto', 'HTTPS').expect(200);
    expect(proxied.body.data.audio_url).to.match(/^https:\/\/localhost:8080\/api\/v1\/audio\/download\//);
  });

  it('ignores the Host entirely when publicBaseUrl is set', async () => {
    test = await buildTestApp({ publicBaseUrl: 'https://tts.example.com' });
    const { apiKey } = await test.register();
    const answer = await synthesize('localhost:8080@evil.example', apiKey).expect(200);
    expect(answer.body.data.audio_url).to.match(/^https:\/\/tts\.example\.com\/api\/v1\/audio\/download\//);
  });
});

describe('server: no secret file name in a log line', () => {
  let test: TestApp;
  afterEach(() => test.close());

  it('masks an unmatched download path in the access log', async () => {
    test = await buildTestApp();
    const { apiKey } = await test.register();
    const synthesized = await request(test.app).post('/api/v1/common/tts-sync').set('X-API-Key', apiKey).send({ model: 'espeak-ng', voice: 'en-us', text: 'Hello.' }).expect(200);
    const fileName = (synthesized.body.data.audio_url as string).split('/').pop() as string;
    const secret = fileName.slice(0, 32);
    await request(test.app).get(`/api/v1/audio/download/${fileName}/extra`).expect(404);
    await request(test.app).get(`/somewhere/${secret}.mp3`).expect(404);
    await request(test.app).get(`/api/v1/audio/download/${fileName}`).expect(200);
    const lines = test.logs.map((entry) => JSON.stringify(entry));
    expect(lines.filter((line) => line.includes(secret))).to.deep.equal([]);
    const routes = test.logs.filter((entry) => entry.message === 'request').map((entry) => entry.route);
    expect(routes).to.include('(unmatched) /api/v1/audio/download/<file>');
    expect(routes).to.include('(unmatched) /somewhere/<masked>.mp3');
  });

  it('masks any run as long as a name secret, and keeps ordinary paths readable', () => {
    expect(maskedPath('/v1/audio/speach')).to.equal('/v1/audio/speach');
    expect(maskedPath(`/x/${'a'.repeat(40)}/y`)).to.equal('/x/<masked>/y');
  });
});

describe("server: an upstream's error text goes to the log, not to the client", () => {
  let test: TestApp;
  afterEach(() => test.close());

  it('answers with the provider status and code and our words, and logs what the provider said', async () => {
    const internals = 'Traceback at /srv/acme/internal/tts.py line 42, key sk-****abcd';
    test = await buildTestApp({
      synthesize: async () => {
        throw upstreamError({ provider: 'Acme', upstreamStatus: 500, reading: { providerCode: 'engine_crash', providerMessage: internals } });
      },
    });
    const { apiKey } = await test.register();
    const answer = await request(test.app).post('/api/v1/common/tts-sync').set('X-API-Key', apiKey).send({ model: 'acme', voice: 'v', text: 'Hello.' }).expect(502);
    const error = expectErrorEnvelope(answer.body, 'TTS_ERR_UPSTREAM');
    expect(answer.body.message).to.equal('Acme answered with an error (HTTP 500): engine_crash');
    expect(error.details[0]).to.include({ provider: 'Acme', upstreamStatus: 500, providerCode: 'engine_crash' });
    expect(JSON.stringify(answer.body)).to.not.include('Traceback');
    const logged = test.logs.find((entry) => entry.message === 'request failed');
    expect(logged).to.include({ code: 'TTS_ERR_UPSTREAM' });
    expect(logged?.providerMessage).to.include('/srv/acme/internal/tts.py');
  });
});

describe('server: passwords must be valid Unicode', () => {
  let test: TestApp;
  afterEach(() => test.close());

  it('refuses a password with a lone surrogate with 400 at registration and at login', async () => {
    test = await buildTestApp();
    // Sent as JSON escapes: the parsed string holds the lone surrogate itself.
    const registration = await request(test.app)
      .post('/api/v1/auth/register')
      .set('Content-Type', 'application/json')
      .send('{"email":"surrogate@example.com","password":"password-\\ud800-123"}')
      .expect(400);
    expect(expectErrorEnvelope(registration.body, 'TTS_ERR_VALIDATION').details[0]).to.include({ field: 'password', reason: 'invalid_unicode' });
    await request(test.app).post('/api/v1/auth/register').send({ email: 'surrogate@example.com', password: 'password-\ufffd-123' }).expect(200);
    const login = await request(test.app)
      .post('/api/v1/auth/login')
      .set('Content-Type', 'application/json')
      .send('{"email":"surrogate@example.com","password":"password-\\udc00-123"}')
      .expect(400);
    expectErrorEnvelope(login.body, 'TTS_ERR_VALIDATION');
    // A well-formed pair (an emoji) is fine.
    await request(test.app).post('/api/v1/auth/register').send({ email: 'emoji@example.com', password: 'password-\ud83d\ude00' }).expect(200);
  });
});
