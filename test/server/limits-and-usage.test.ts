import { expect } from 'chai';
import { appliedPlan } from '../support/applied-plan';
import request from 'supertest';
import { GatewayError } from '../../core';
import { buildTestApp, expectErrorEnvelope, type TestApp } from './support/test-app';

const VALID = { model: 'espeak-ng', voice: 'en-us', text: 'Hello world' };

describe('server limits: requests per minute and characters per day', () => {
  let testApp: TestApp;
  let apiKey: string;
  let failNext: boolean;
  afterEach(() => testApp.close());

  const post = (body: object, key = apiKey) => request(testApp.app).post('/api/v1/common/tts-sync').set('X-API-Key', key).send(body);

  beforeEach(async () => {
    failNext = false;
    testApp = await buildTestApp({
      limits: { requestsPerMinute: 3, charactersPerDay: 30, perKey: {} },
      synthesize: async (synthesisRequest) => {
        if (failNext) throw new GatewayError('TTS_ERR_UPSTREAM', 'the provider failed');
        const saved = await testApp.audioStore.save(Buffer.from('audio'), synthesisRequest.format);
        return { ...saved, format: synthesisRequest.format, applied: appliedPlan(), provider: 'fake', servedBy: 'm/v', instructionsIgnored: false };
      },
    });
    ({ apiKey } = await testApp.register());
  });

  it('sends RateLimit-Policy and RateLimit (IETF draft syntax) on allowed answers', async () => {
    const response = await post(VALID).expect(200);
    expect(response.headers['ratelimit-policy']).to.equal('"account-minute";q=3;w=60, "account-day";q=30;qu="characters";w=86400');
    expect(response.headers.ratelimit).to.match(/^"account-minute";r=2;t=(60|59), "account-day";r=19;t=\d+$/);
  });

  it('answers 429 with Retry-After and the headers once the requests per minute are used, without synthesizing', async () => {
    for (let index = 0; index < 3; index += 1) await post({ ...VALID, text: 'Hi' }).expect(200);
    const refused = await post({ ...VALID, text: 'Hi' }).expect(429);
    const error = expectErrorEnvelope(refused.body, 'TTS_ERR_RATE_LIMITED');
    expect(error.details[0]).to.include({ reason: 'limit_exceeded', policy: 'account-minute', quota: 3 });
    expect(Number(refused.headers['retry-after'])).to.be.within(1, 60);
    expect(refused.headers.ratelimit).to.match(/^"account-minute";r=0;t=\d+, "account-day";r=24;t=\d+$/);
    expect(refused.headers['ratelimit-policy']).to.be.a('string');
    expect(testApp.synthesisCalls).to.have.length(3);
  });

  it('refuses a text that would exceed the daily characters before any synthesis; a smaller one still fits', async () => {
    await post({ ...VALID, text: 'x'.repeat(25) }).expect(200);
    const refused = await post({ ...VALID, text: 'y'.repeat(6) }).expect(429);
    expect(expectErrorEnvelope(refused.body, 'TTS_ERR_RATE_LIMITED').details[0]).to.include({ policy: 'account-day' });
    expect(testApp.synthesisCalls).to.have.length(1);
    await post({ ...VALID, text: 'z'.repeat(5) }).expect(200);
    expect(testApp.synthesisCalls).to.have.length(2);
  });

  it('gives a failed synthesis its characters back', async () => {
    failNext = true;
    await post({ ...VALID, text: 'x'.repeat(25) }).expect(502);
    failNext = false;
    await post({ ...VALID, text: 'x'.repeat(30) }).expect(200);
  });

  it('applies an account’s own limits over the defaults', async () => {
    const { accountId, apiKey: other } = await testApp.register();
    await testApp.store.setAccountLimits(accountId, { requestsPerMinute: 1 });
    await post(VALID, other).expect(200);
    await post(VALID, other).expect(429);
  });

  it('counts characters only for text it can synthesize: a bad text is a 400 and counts nothing', async () => {
    await post({ ...VALID, text: '' }).expect(400);
    await post({ ...VALID, text: 'x'.repeat(30) }).expect(200);
  });
});

describe('server GET /api/v1/usage', () => {
  let testApp: TestApp;
  afterEach(() => testApp.close());

  it('reports the caller’s totals, by model and by day, in the envelope', async () => {
    let fail = false;
    testApp = await buildTestApp({
      synthesize: async (synthesisRequest) => {
        if (fail) throw new GatewayError('TTS_ERR_TIMEOUT', 'too slow');
        const saved = await testApp.audioStore.save(Buffer.from('audio'), synthesisRequest.format);
        return { ...saved, format: synthesisRequest.format, applied: appliedPlan(), provider: 'fake', servedBy: 'm/v', instructionsIgnored: false, durationSeconds: 1.25 };
      },
    });
    const { apiKey } = await testApp.register();
    const { apiKey: otherKey } = await testApp.register();
    const post = (body: object, key = apiKey) => request(testApp.app).post('/api/v1/common/tts-sync').set('X-API-Key', key).send(body);
    await post({ ...VALID, text: 'Hello' }).expect(200);
    await post({ ...VALID, model: 'tts-1', text: 'Hi there' }).expect(200);
    fail = true;
    await post({ ...VALID, text: 'Hello' }).expect(504);
    fail = false;
    await post({ ...VALID, text: 'Not mine' }, otherKey).expect(200);
    const today = new Date().toISOString().slice(0, 10);
    const response = await request(testApp.app).get(`/api/v1/usage?from=${today}&to=${today}`).set('X-API-Key', apiKey).expect(200);
    expect(response.body).to.include({ success: true });
    expect(response.body.data).to.deep.equal({
      from: today,
      to: today,
      totals: { requests: 3, characters: 13, audioSeconds: 2.5, cacheHits: 0, errors: 1 },
      byModel: [
        { model: 'espeak-ng', requests: 2, characters: 5, audioSeconds: 1.25, cacheHits: 0, errors: 1 },
        { model: 'tts-1', requests: 1, characters: 8, audioSeconds: 1.25, cacheHits: 0, errors: 0 },
      ],
      byDay: [{ date: today, requests: 3, characters: 13, audioSeconds: 2.5, cacheHits: 0, errors: 1 }],
    });
    const defaults = await request(testApp.app).get('/api/v1/usage').set('X-API-Key', apiKey).expect(200);
    expect(defaults.body.data.to).to.equal(today);
    expect(defaults.body.data.totals.requests).to.equal(3);
  });

  it('answers 400 for a bad date and 401 without a key', async () => {
    testApp = await buildTestApp();
    const { apiKey } = await testApp.register();
    const bad = await request(testApp.app).get('/api/v1/usage?from=yesterday').set('X-API-Key', apiKey).expect(400);
    expect(expectErrorEnvelope(bad.body, 'TTS_ERR_VALIDATION').details[0]).to.include({ field: 'from' });
    await request(testApp.app).get('/api/v1/usage?to=2025-01-01&to=2025-01-02').set('X-API-Key', apiKey).expect(400);
    await request(testApp.app).get('/api/v1/usage').expect(401);
  });
});

describe('server limits on the streaming routes: tts-stream and /v1/audio/speech', () => {
  let testApp: TestApp;
  let apiKey: string;
  beforeEach(async () => {
    testApp = await buildTestApp({ limits: { requestsPerMinute: 1, perKey: {} } });
    ({ apiKey } = await testApp.register());
  });
  afterEach(() => testApp.close());

  it('limits tts-stream like tts-sync, with the headers on the audio answer', async () => {
    const first = await request(testApp.app).post('/api/v1/common/tts-stream').set('X-API-Key', apiKey).send(VALID);
    expect(first.status).to.equal(200);
    expect(first.headers.ratelimit).to.match(/^"account-minute";r=0;t=\d+$/);
    const refused = await request(testApp.app).post('/api/v1/common/tts-stream').set('X-API-Key', apiKey).send(VALID).expect(429);
    expectErrorEnvelope(refused.body, 'TTS_ERR_RATE_LIMITED');
    expect(refused.headers['retry-after']).to.match(/^\d+$/);
  });

  it('gives the characters back to an SSE stream that fails midway (it ends with an error event, its status 200 long sent)', async () => {
    await testApp.close();
    testApp = await buildTestApp({
      limits: { charactersPerDay: 30, perKey: {} },
      stream: async (synthesisRequest) => ({
        format: synthesisRequest.format,
        applied: appliedPlan(),
        provider: 'fake',
        servedBy: 'm/v',
        instructionsIgnored: false,
        progress: { bytes: 5 },
        chunks: (async function* () {
          yield Buffer.from('first');
          if (synthesisRequest.text.startsWith('x')) throw new GatewayError('TTS_ERR_UPSTREAM', 'the provider broke off');
        })(),
      }),
    });
    ({ apiKey } = await testApp.register());
    const speech = (body: object) => request(testApp.app).post('/v1/audio/speech').set('Authorization', `Bearer ${apiKey}`).send({ model: 'tts-1', voice: 'alloy', ...body });
    const failed = await speech({ input: 'x'.repeat(25), stream_format: 'sse' }).expect(200);
    expect(failed.text).to.include('"type":"error"');
    await speech({ input: 'y'.repeat(30), stream_format: 'sse' }).expect(200);
  });

  it('limits /v1/audio/speech, answering in OpenAI’s error shape with Retry-After', async () => {
    const speech = () => request(testApp.app).post('/v1/audio/speech').set('Authorization', `Bearer ${apiKey}`).send({ model: 'tts-1', input: 'Hello world', voice: 'alloy' });
    expect((await speech()).status).to.equal(200);
    const refused = await speech().expect(429);
    // A rate limit, not a used-up quota: OpenAI's rate-limit code.
    expect(refused.body.error).to.include({ type: 'requests', code: 'rate_limit_exceeded' });
    expect(refused.body.error.message).to.include('1 synthesis requests per minute');
    expect(refused.headers['retry-after']).to.match(/^\d+$/);
    expect(refused.headers['ratelimit-policy']).to.equal('"account-minute";q=1;w=60');
  });
});
