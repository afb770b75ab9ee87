import { expect } from 'chai';
import request from 'supertest';
import { GatewayError } from '../../core';
import type { SynthesizeFunction } from '../../server/app-dependencies';
import { buildTestApp, expectErrorEnvelope, type TestApp, type TestAppOptions } from './support/test-app';

const VALID = { model: 'espeak-ng', text: 'Hello world', voice: 'en-us' };

describe('server POST /api/v1/common/tts-sync', () => {
  let testApp: TestApp;
  let apiKey: string;

  async function start(options: TestAppOptions = {}): Promise<void> {
    testApp = await buildTestApp(options);
    ({ apiKey } = await testApp.register());
  }
  afterEach(() => testApp.close());

  const post = (body: unknown) => request(testApp.app).post('/api/v1/common/tts-sync').set('X-API-Key', apiKey).send(body as object);

  /** Every failure must leave the server answering the next request normally. */
  async function expectStillServing(): Promise<void> {
    const response = await request(testApp.app).get('/api/v1/tools/models').set('X-API-Key', apiKey).expect(200);
    expect(response.body.success).to.equal(true);
  }

  describe('with a working synthesizer', () => {
    beforeEach(() => start({ publicBaseUrl: 'https://tts.example.com/' }));

    it('answers the envelope with request id, audio URL, size and X-TTS-Applied', async () => {
      const response = await post(VALID).set('X-Request-Id', 'client-req-42').expect(200);
      expect(response.headers['x-request-id']).to.equal('client-req-42');
      expect(response.headers['x-tts-applied']).to.equal('speed=native; pitch=dsp; volume=default; format=native; chunks=1');
      expect(response.body).to.include({ success: true });
      const data = response.body.data as { request_id: string; audio_url: string; file_size: number };
      expect(data.request_id).to.equal('client-req-42');
      expect(data.audio_url).to.match(/^https:\/\/tts\.example\.com\/api\/v1\/audio\/download\/[A-Za-z0-9_-]{32}\.mp3$/);
      expect(data.file_size).to.equal(Buffer.byteLength('audio for Hello world'));
      const download = await request(testApp.app).get(new URL(data.audio_url).pathname).expect(200);
      expect(Buffer.from(download.body as Buffer).toString()).to.equal('audio for Hello world');
    });

    it('passes defaults and the caller to the synthesizer, and records usage', async () => {
      await post({ ...VALID, text: 'héllo 👋', format: 'wav', speed: 1.5 }).expect(200);
      const [call] = testApp.synthesisCalls;
      expect(call.request).to.deep.equal({ model: 'espeak-ng', text: 'héllo 👋', voice: 'en-us', speed: 1.5, pitch: 1, volume: 1, format: 'wav' });
      const { account } = await testApp.accounts.authenticate(apiKey);
      expect(call.context.accountId).to.equal(account.id);
      expect(call.context.signal?.aborted).to.equal(false);
      const usage = await testApp.store.listUsage(account.id);
      expect(usage).to.have.length(1);
      expect(usage[0]).to.include({ model: 'espeak-ng', characters: 7, bytes: Buffer.byteLength('audio for héllo 👋') });
    });

    const badBodies: [string, unknown, string][] = [
      ['a missing model', { text: 'hi', voice: 'en-us' }, 'model'],
      ['a missing text', { model: 'm', voice: 'en-us' }, 'text'],
      ['a missing voice', { model: 'm', text: 'hi' }, 'voice'],
      ['a number as text', { ...VALID, text: 42 }, 'text'],
      ['a string as speed', { ...VALID, speed: '1.5' }, 'speed'],
      ['speed 2.1', { ...VALID, speed: 2.1 }, 'speed'],
      ['speed 0.4', { ...VALID, speed: 0.4 }, 'speed'],
      ['pitch 0', { ...VALID, pitch: 0 }, 'pitch'],
      ['volume 3', { ...VALID, volume: 3 }, 'volume'],
      ['an unknown format', { ...VALID, format: 'mp4' }, 'format'],
      ['an empty model', { ...VALID, model: '' }, 'model'],
      ['an unknown field', { ...VALID, emotion: 'happy' }, 'emotion'],
      ['an empty text', { ...VALID, text: '' }, 'text'],
      ['a whitespace-only text', { ...VALID, text: ' \n\t\u3000 ' }, 'text'],
      ['a text of invisible characters only', { ...VALID, text: '\u200b \u200c\ufe0f\u00ad\u0000' }, 'text'],
      ['10,001 characters', { ...VALID, text: 'a'.repeat(10_001) }, 'text'],
      ['10,001 emoji', { ...VALID, text: '😀'.repeat(10_001) }, 'text'],
    ];
    for (const [label, body, field] of badBodies) {
      it(`answers 400 naming the field for ${label}`, async () => {
        const response = await post(body).expect(400);
        const error = expectErrorEnvelope(response.body, 'TTS_ERR_VALIDATION');
        expect(error.details.map((detail) => detail.field)).to.include(field);
        expect(response.body.message).to.include(field);
        expect(testApp.synthesisCalls).to.have.length(0);
        await expectStillServing();
      });
    }

    it('says what the speed range is', async () => {
      const response = await post({ ...VALID, speed: 2.1 }).expect(400);
      expect(response.body.message).to.equal('speed must be between 0.5 and 2.0');
      expect(response.body.error.details[0]).to.deep.equal({ field: 'speed', reason: 'maximum' });
    });

    it('accepts 10,000 characters and 10,000 emoji (counted as code points)', async () => {
      await post({ ...VALID, text: 'a'.repeat(10_000) }).expect(200);
      await post({ ...VALID, text: '😀'.repeat(10_000) }).expect(200);
      expect(testApp.synthesisCalls).to.have.length(2);
    });

    it('accepts the range bounds 0.5 and 2.0', async () => {
      await post({ ...VALID, speed: 0.5, pitch: 2.0, volume: 2 }).expect(200);
    });

    it('answers 400 TTS_ERR_MALFORMED_JSON for malformed JSON', async () => {
      const response = await request(testApp.app)
        .post('/api/v1/common/tts-sync')
        .set('X-API-Key', apiKey)
        .set('Content-Type', 'application/json')
        .send('{"model": "m", "text": ')
        .expect(400);
      expectErrorEnvelope(response.body, 'TTS_ERR_MALFORMED_JSON');
      await expectStillServing();
    });

    it('answers 400 for a body that is not a JSON object', async () => {
      const response = await post([VALID]).expect(400);
      expect(expectErrorEnvelope(response.body, 'TTS_ERR_VALIDATION').details[0]).to.include({ reason: 'type' });
    });

    it('answers 400 for a body in another Content-Type', async () => {
      const response = await request(testApp.app)
        .post('/api/v1/common/tts-sync')
        .set('X-API-Key', apiKey)
        .set('Content-Type', 'text/plain')
        .send('model=m&text=hi')
        .expect(400);
      expect(expectErrorEnvelope(response.body, 'TTS_ERR_VALIDATION').details[0]).to.include({ field: 'Content-Type' });
      await expectStillServing();
    });

    it('answers 400 for a charset other than UTF-8', async () => {
      const response = await request(testApp.app)
        .post('/api/v1/common/tts-sync')
        .set('X-API-Key', apiKey)
        .set('Content-Type', 'application/json; charset=latin1')
        .send(JSON.stringify(VALID))
        .expect(400);
      expect(expectErrorEnvelope(response.body, 'TTS_ERR_VALIDATION').details[0]).to.include({ field: 'Content-Type' });
      await expectStillServing();
    });

    it('reports every problem of a body in the details', async () => {
      const response = await post({ model: 'm', voice: 'v', speed: 9, bogus: 1 }).expect(400);
      const fields = expectErrorEnvelope(response.body, 'TTS_ERR_VALIDATION').details.map((detail) => detail.field);
      expect(fields).to.have.members(['text', 'speed', 'bogus']);
    });

    it('answers 400 naming the first missing field when there is no body', async () => {
      const response = await request(testApp.app).post('/api/v1/common/tts-sync').set('X-API-Key', apiKey).expect(400);
      expect(response.body.message).to.equal('model is required');
    });

    for (const [label, key] of [
      ['missing', undefined],
      ['unknown', `ttsg_${'x'.repeat(43)}`],
      ['malformed', 'Bearer abc'],
    ] as const) {
      it(`answers 401 for a ${label} key, before reading the body`, async () => {
        const call = request(testApp.app).post('/api/v1/common/tts-sync');
        if (key !== undefined) call.set('X-API-Key', key);
        const response = await call.send(VALID).expect(401);
        expectErrorEnvelope(response.body, 'TTS_ERR_UNAUTHORIZED');
        expect(testApp.synthesisCalls).to.have.length(0);
        await expectStillServing();
      });
    }

    it('answers 401 for a revoked key', async () => {
      const { account } = await testApp.accounts.authenticate(apiKey);
      const spare = await testApp.accounts.createKey(account.id, 'spare');
      await request(testApp.app).post('/api/v1/common/tts-sync').set('X-API-Key', spare.apiKey).send(VALID).expect(200);
      await testApp.accounts.revokeKey(account.id, spare.id);
      const response = await request(testApp.app).post('/api/v1/common/tts-sync').set('X-API-Key', spare.apiKey).send(VALID).expect(401);
      expectErrorEnvelope(response.body, 'TTS_ERR_UNAUTHORIZED');
    });

    it('never logs the text or the key', async () => {
      await post({ ...VALID, text: 'my secret diary entry' }).expect(200);
      const logged = JSON.stringify(testApp.logs);
      expect(logged).to.not.include('my secret diary entry').and.not.include(apiKey);
      expect(testApp.logs.find((entry) => entry.route === '/api/v1/common/tts-sync')).to.include({ method: 'POST', status: 200 });
    });

    it('logs the model, the text length and the provider on the request line', async () => {
      await post({ ...VALID, text: 'Hi 😀' }).expect(200);
      const line = testApp.logs.find((entry) => entry.route === '/api/v1/common/tts-sync');
      expect(line).to.include({ model: VALID.model, textLength: 4 });
      expect(line).to.have.property('provider');
      expect(line).to.have.property('latencyMs');
    });
  });

  describe('with a body limit', () => {
    beforeEach(() => start({ bodyLimitBytes: 1024 }));

    it('answers 413 for a body over the limit', async () => {
      const response = await post({ ...VALID, text: 'a'.repeat(2000) }).expect(413);
      expectErrorEnvelope(response.body, 'TTS_ERR_PAYLOAD_TOO_LARGE');
      expect(response.body.message).to.include('1024');
      await expectStillServing();
      await post(VALID).expect(200);
    });
  });

  describe('when the synthesizer fails', () => {
    const failures: [string, () => GatewayError, number, string][] = [
      ['an unknown model', () => new GatewayError('TTS_ERR_MODEL_NOT_FOUND', 'Unknown model "nope"'), 404, 'TTS_ERR_MODEL_NOT_FOUND'],
      ['an unknown voice', () => new GatewayError('TTS_ERR_VOICE_NOT_FOUND', 'Unknown voice "x"'), 404, 'TTS_ERR_VOICE_NOT_FOUND'],
      ['an impossible format', () => new GatewayError('TTS_ERR_UNSUPPORTED_FORMAT', 'Cannot produce aac'), 422, 'TTS_ERR_UNSUPPORTED_FORMAT'],
      ['an upstream error', () => new GatewayError('TTS_ERR_UPSTREAM', 'Acme answered 500', { details: [{ reason: 'upstream', upstreamStatus: 500 }] }), 502, 'TTS_ERR_UPSTREAM'],
      ['an unavailable provider', () => new GatewayError('TTS_ERR_UNAVAILABLE', 'Acme is unavailable'), 503, 'TTS_ERR_UNAVAILABLE'],
      ['a timeout', () => new GatewayError('TTS_ERR_TIMEOUT', 'Acme did not answer in time'), 504, 'TTS_ERR_TIMEOUT'],
    ];
    for (const [label, makeError, status, code] of failures) {
      it(`answers ${status} ${code} for ${label}`, async () => {
        await start({ synthesize: async () => Promise.reject(makeError()) });
        const response = await post(VALID).expect(status);
        const error = expectErrorEnvelope(response.body, code);
        expect(response.body.message).to.equal(makeError().message);
        expect(error.details).to.deep.equal(makeError().details);
        // README, Headers: every 503 says when to retry, 1 s when nobody said.
        expect(response.headers['retry-after']).to.equal(status === 503 ? '1' : undefined);
        expect(response.headers['x-request-id']).to.be.a('string');
        await expectStillServing();
      });
    }

    it('answers 429 with Retry-After', async () => {
      await start({ synthesize: async () => Promise.reject(new GatewayError('TTS_ERR_RATE_LIMITED', 'Slow down', { retryAfterSeconds: 7.2 })) });
      const response = await post(VALID).expect(429);
      expectErrorEnvelope(response.body, 'TTS_ERR_RATE_LIMITED');
      expect(response.headers['retry-after']).to.equal('8');
      await expectStillServing();
    });

    it('answers a generic 500 for a plain Error, without its message or stack, and logs it with the request id', async () => {
      const synthesize: SynthesizeFunction = async () => {
        throw new Error('database password is hunter2');
      };
      await start({ synthesize });
      const response = await post(VALID).set('X-Request-Id', 'trace-500').expect(500).expect('X-Request-Id', 'trace-500');
      expectErrorEnvelope(response.body, 'TTS_ERR_INTERNAL');
      const text = JSON.stringify(response.body);
      expect(text).to.not.include('hunter2').and.not.include('at ').and.not.include('.js');
      expect(response.body.message).to.equal('Internal server error');
      const logged = testApp.logs.find((entry) => entry.message === 'unexpected error');
      expect(logged).to.include({ requestId: 'trace-500', level: 'error' });
      // Where it was thrown, not the stack: stacks stay out of logs as out of answers.
      expect(logged).to.include({ errorName: 'Error' });
      expect(logged?.thrownAt).to.match(/^test\/server\/tts-sync\.test\.js:\d+$/);
      expect(logged).to.not.have.property('stack');
      expect(JSON.stringify(logged)).to.not.include('    at ');
      await expectStillServing();
    });

    it('aborts the signal when the client disconnects', async () => {
      let seen: AbortSignal | undefined;
      let reportAbort: () => void = () => undefined;
      const aborted = new Promise<void>((resolve) => (reportAbort = resolve));
      await start({
        synthesize: (synthesisRequest, context) =>
          new Promise((resolve, reject) => {
            const signal = context.signal as AbortSignal;
            seen = signal;
            signal.addEventListener('abort', () => {
              reportAbort();
              reject(signal.reason);
            });
          }),
      });
      const call = post(VALID).timeout(200);
      const outcome = await call.then(
        () => 'answered',
        (error: Error & { timeout?: number }) => (error.timeout ? 'timed out' : error.message),
      );
      expect(outcome).to.equal('timed out');
      await aborted;
      expect(seen?.aborted).to.equal(true);
      await expectStillServing();
    });
  });
});
