import { expect } from 'chai';
import { appliedPlan } from '../support/applied-plan';
import request from 'supertest';
import { GatewayError } from '../../core';
import { UNKNOWN_MODEL } from '../../server/usage-recorder';
import { failingAfterFirstPiece } from './support/failing-stream';
import { buildTestApp, type TestApp, type TestAppOptions } from './support/test-app';

const SPEECH = { model: 'tts-1', input: 'Hello world', voice: 'alloy' };

/** Asserts OpenAI's error shape and returns its `error` part. */
function expectOpenAiError(body: unknown, type: string): { message: string; type: string; param: string | null; code: string | null } {
  const error = (body as { error: { message: string; type: string; param: string | null; code: string | null } }).error;
  expect(Object.keys(body as object)).to.deep.equal(['error']);
  expect(error.type).to.equal(type);
  expect(error.message).to.be.a('string').and.not.empty;
  expect(error).to.have.all.keys('message', 'type', 'param', 'code');
  expect(JSON.stringify(body)).not.to.match(/at .*\.js:\d+/);
  return error;
}

/** A stream whose second piece fails, as a provider that breaks off midway. */
describe('server /v1 (OpenAI-compatible)', () => {
  let testApp: TestApp;
  let apiKey: string;

  async function start(options: TestAppOptions = {}): Promise<void> {
    testApp = await buildTestApp(options);
    ({ apiKey } = await testApp.register());
  }
  afterEach(() => testApp.close());

  const speech = (body: unknown) => request(testApp.app).post('/v1/audio/speech').set('Authorization', `Bearer ${apiKey}`).send(body as object);

  describe('POST /v1/audio/speech', () => {
    beforeEach(() => start());

    it('streams the audio with its Content-Type and the gateway headers, taking a Bearer key', async () => {
      const response = await speech(SPEECH).buffer(true).parse((res, callback) => {
        const parts: Buffer[] = [];
        res.on('data', (part: Buffer) => parts.push(part));
        res.on('end', () => callback(null, Buffer.concat(parts)));
      });
      expect(response.status).to.equal(200);
      expect(response.headers['content-type']).to.equal('audio/mpeg');
      expect(response.headers['transfer-encoding']).to.equal('chunked');
      expect(response.headers['x-tts-applied']).to.equal('speed=native; pitch=default; volume=default; format=native; chunks=1');
      expect(response.headers['x-tts-served-by']).to.equal('tts-1/alloy');
      expect((response.body as Buffer).toString()).to.equal('audio for Hello world');
    });

    it('maps the body to one synthesis request: defaults, voice object, pcm at 24 kHz, extensions, instructions', async () => {
      await speech({ ...SPEECH, voice: { id: 'ash' }, response_format: 'pcm', speed: 4, pitch: 1.5, volume: 0.5, instructions: 'Calmly.' }).expect(200);
      expect(testApp.synthesisCalls[0].request).to.deep.equal({
        model: 'tts-1',
        text: 'Hello world',
        voice: 'ash',
        speed: 4,
        pitch: 1.5,
        volume: 0.5,
        format: 'pcm',
        sampleRate: 24000,
        instructions: 'Calmly.',
      });
      await speech(SPEECH).expect(200);
      expect(testApp.synthesisCalls[1].request).to.include({ speed: 1, pitch: 1, volume: 1, format: 'mp3' });
    });

    it('passes the client\'s cache choice on and says whether the cache answered', async () => {
      await testApp.close();
      await start({ stream: async (synthesisRequest, context) => ({ ...(await failingAfterFirstPiece(synthesisRequest, context)), chunks: (async function* () { yield Buffer.from('x'); })(), cache: context.useCache ? 'hit' : 'bypass' }) });
      const hit = await speech(SPEECH).expect(200);
      expect(hit.headers['x-tts-cache']).to.equal('hit');
      const bypass = await speech(SPEECH).set('Cache-Control', 'no-cache, no-store').expect(200);
      expect(bypass.headers['x-tts-cache']).to.equal('miss');
      expect(testApp.synthesisCalls.map((call) => call.context.useCache)).to.deep.equal([true, false]);
    });

    it('labels pcm as OpenAI does', async () => {
      const response = await speech({ ...SPEECH, response_format: 'pcm' }).expect(200);
      expect(response.headers['content-type']).to.equal('audio/pcm');
    });

    it('says in a header when the model ignores instructions', async () => {
      await testApp.close();
      await start({
        stream: async (synthesisRequest) => ({
          format: synthesisRequest.format,
          applied: appliedPlan(),
          provider: 'fake',
          servedBy: 'm/v',
          instructionsIgnored: true,
          progress: { bytes: 1 },
          chunks: (async function* () {
            yield Buffer.from('a');
          })(),
        }),
      });
      const response = await speech({ ...SPEECH, instructions: 'Whisper.' }).expect(200);
      expect(response.headers['x-tts-instructions']).to.match(/^ignored/);
    });

    it('sends SSE delta events and a done event with usage', async () => {
      const response = await speech({ ...SPEECH, stream_format: 'sse' }).expect(200);
      expect(response.headers['content-type']).to.match(/^text\/event-stream/);
      const blocks = response.text.split('\n\n').filter((block) => block.length > 0);
      const events = blocks.map((block) => JSON.parse(block.replace(/^data: /, '')) as { type: string; audio?: string; usage?: Record<string, number> });
      // The delta events are written out without JSON.stringify: byte for byte what it would write.
      expect(blocks).to.deep.equal(events.map((event) => `data: ${JSON.stringify(event)}`));
      const deltas = events.filter((event) => event.type === 'speech.audio.delta');
      expect(deltas).to.have.length(2);
      expect(Buffer.concat(deltas.map((event) => Buffer.from(event.audio as string, 'base64'))).toString()).to.equal('audio for Hello world');
      expect(events.at(-1)).to.deep.equal({ type: 'speech.audio.done', usage: { input_tokens: 11, output_tokens: 0, total_tokens: 11 } });
    });

    it('records usage for a completed stream', async () => {
      const recorded: unknown[] = [];
      const original = testApp.accounts.recordUsage.bind(testApp.accounts);
      testApp.accounts.recordUsage = async (accountId, keyId, usage) => {
        recorded.push(usage);
        return original(accountId, keyId, usage);
      };
      await speech(SPEECH).expect(200);
      expect(recorded).to.deep.equal([{ model: 'tts-1', characters: 11, bytes: 21, audioSeconds: 1.5, cacheHit: false }]);
    });

    it('counts a failed synthesis as a usage error, and a client mistake not', async () => {
      await testApp.close();
      await start({
        stream: async (synthesisRequest) => {
          if (synthesisRequest.model === 'tts-9') throw new GatewayError('TTS_ERR_MODEL_NOT_FOUND', 'no such model');
          throw new GatewayError('TTS_ERR_UPSTREAM', 'provider failed');
        },
      });
      const failures: [string, boolean | undefined][] = [];
      testApp.accounts.recordFailedUsage = async (_accountId, model, error) => {
        failures.push([model, error]);
      };
      await speech(SPEECH).expect(502);
      await speech({ ...SPEECH, model: 'tts-9' }).expect(404);
      // Both are requests; only the provider's failure is an error. A model the gateway does not
      // serve is counted under one name, not the one sent (README, Usage).
      expect(failures).to.deep.equal([
        ['tts-1', true],
        [UNKNOWN_MODEL, false],
      ]);
    });

    const invalid: [string, object, string | null][] = [
      ['a missing model', { input: 'x', voice: 'alloy' }, 'model'],
      ['an empty input', { ...SPEECH, input: '' }, 'input'],
      ['blank input', { ...SPEECH, input: '   ' }, 'input'],
      ['input of invisible characters only', { ...SPEECH, input: '\u200b\u200d\ufeff\u2060\u200e' }, 'input'],
      ['input over 10,000 characters', { ...SPEECH, input: 'a'.repeat(10_001) }, 'input'],
      ['speed over 4.0', { ...SPEECH, speed: 4.5 }, 'speed'],
      ['speed under 0.25', { ...SPEECH, speed: 0.2 }, 'speed'],
      ['an unknown response_format', { ...SPEECH, response_format: 'ogg' }, 'response_format'],
      ['an unknown stream_format', { ...SPEECH, stream_format: 'chunks' }, 'stream_format'],
      ['an unknown field', { ...SPEECH, temperature: 1 }, 'temperature'],
      ['a voice object without id', { ...SPEECH, voice: { name: 'alloy' } }, 'voice.id'],
      ['pitch outside 0.5..2.0', { ...SPEECH, pitch: 3 }, 'pitch'],
    ];
    for (const [label, body, param] of invalid) {
      it(`answers 400 in OpenAI's shape for ${label}`, async () => {
        const response = await speech(body).expect(400);
        expect(expectOpenAiError(response.body, 'invalid_request_error').param).to.equal(param);
        expect(testApp.synthesisCalls).to.have.length(0);
      });
    }

    it('answers malformed JSON with a 400 in OpenAI shape', async () => {
      const response = await request(testApp.app).post('/v1/audio/speech').set('Authorization', `Bearer ${apiKey}`).type('json').send('{"model":').expect(400);
      expectOpenAiError(response.body, 'invalid_request_error');
    });

    it('refuses a declared body over the limit with a 413 in OpenAI shape, before it is read', async () => {
      await testApp.close();
      await start({ bodyLimitBytes: 1024 });
      const response = await speech({ ...SPEECH, input: 'a'.repeat(2000) }).expect(413);
      expectOpenAiError(response.body, 'invalid_request_error');
      expect(testApp.synthesisCalls).to.have.length(0);
    });

    it('answers an unknown model 404 and an unknown voice 400, as OpenAI does', async () => {
      await testApp.close();
      await start({
        stream: async (synthesisRequest) => {
          if (synthesisRequest.model !== 'tts-1') throw new GatewayError('TTS_ERR_MODEL_NOT_FOUND', `unknown model ${synthesisRequest.model}`);
          throw new GatewayError('TTS_ERR_VOICE_NOT_FOUND', 'unknown voice', { details: [{ field: 'voice', reason: 'unknown' }] });
        },
      });
      const model = await speech({ ...SPEECH, model: 'tts-9' }).expect(404);
      expect(expectOpenAiError(model.body, 'invalid_request_error')).to.include({ code: 'model_not_found', param: 'model' });
      const voice = await speech({ ...SPEECH, voice: 'nobody' }).expect(400);
      expect(expectOpenAiError(voice.body, 'invalid_request_error')).to.include({ param: 'voice' });
    });

    it('passes 429 with Retry-After and 5xx as server errors', async () => {
      await testApp.close();
      let call = 0;
      await start({
        stream: async () => {
          call += 1;
          if (call === 1) throw new GatewayError('TTS_ERR_RATE_LIMITED', 'slow down', { retryAfterSeconds: 7 });
          throw new GatewayError('TTS_ERR_UPSTREAM', 'provider failed');
        },
      });
      const limited = await speech(SPEECH).expect(429);
      expect(limited.headers['retry-after']).to.equal('7');
      expect(expectOpenAiError(limited.body, 'requests').code).to.equal('rate_limit_exceeded');
      const failed = await speech(SPEECH).expect(502);
      expect(expectOpenAiError(failed.body, 'server_error').param).to.equal(null);
    });

  });

  describe('authentication', () => {
    beforeEach(() => start());

    it('takes X-API-Key as well as Bearer', async () => {
      await request(testApp.app).post('/v1/audio/speech').set('X-API-Key', apiKey).send(SPEECH).expect(200);
    });

    // OpenAI's code: null when no key was sent, invalid_api_key for a wrong one.
    for (const [label, header, code] of [
      ['no key', undefined, null],
      ['a wrong key', 'Bearer ttsg_wrongwrongwrongwrongwrongwrongwrongwrongwro', 'invalid_api_key'],
      ['a malformed header (no Bearer key in it)', 'Basic abc', null],
    ] as const) {
      it(`answers 401 code ${code} for ${label}`, async () => {
        const call = request(testApp.app).post('/v1/audio/speech');
        if (header) call.set('Authorization', header);
        const response = await call.send(SPEECH).expect(401);
        expect(expectOpenAiError(response.body, 'invalid_request_error').code).to.equal(code);
        // Names both ways a key may come, since OpenAI clients send it as a Bearer token.
        expect(response.body.error.message).to.equal('A valid API key is required (X-API-Key, or Authorization: Bearer)');
        expect(JSON.stringify(response.body)).not.to.contain('wrongwrong');
      });
    }

    it('takes Bearer when X-API-Key is sent empty (an unset variable), and refuses an empty key alone', async () => {
      await request(testApp.app).post('/v1/audio/speech').set('X-API-Key', '').set('Authorization', `Bearer ${apiKey}`).send(SPEECH).expect(200);
      const refused = await request(testApp.app).post('/v1/audio/speech').set('X-API-Key', '').send(SPEECH).expect(401);
      expect(expectOpenAiError(refused.body, 'invalid_request_error').code).to.equal(null);
    });

    it('takes Bearer on /api/v1 too, keeping the spec envelope there', async () => {
      const ok = await request(testApp.app).get('/api/v1/tools/models').set('Authorization', `Bearer ${apiKey}`).expect(200);
      expect(ok.body.success).to.equal(true);
      const refused = await request(testApp.app).get('/api/v1/tools/models').set('Authorization', 'Bearer nope').expect(401);
      expect(refused.body.error.code).to.equal('TTS_ERR_UNAUTHORIZED');
    });
  });

  describe('models and voices', () => {
    beforeEach(() => start());

    it('lists models in OpenAI list shape, and one model by id', async () => {
      const list = await request(testApp.app).get('/v1/models').set('Authorization', `Bearer ${apiKey}`).expect(200);
      expect(list.body).to.deep.equal({
        object: 'list',
        data: [
          { id: 'espeak-ng', object: 'model', created: 1_795_000_000, owned_by: 'fake' },
          { id: 'tts-1', object: 'model', created: 1_795_000_000, owned_by: 'fake' },
        ],
      });
      const one = await request(testApp.app).get('/v1/models/tts-1').set('Authorization', `Bearer ${apiKey}`).expect(200);
      expect(one.body).to.deep.equal({ id: 'tts-1', object: 'model', created: 1_795_000_000, owned_by: 'fake' });
      const missing = await request(testApp.app).get('/v1/models/tts-9').set('Authorization', `Bearer ${apiKey}`).expect(404);
      expect(expectOpenAiError(missing.body, 'invalid_request_error').code).to.equal('model_not_found');
    });

    it('lists voices of a model, tts-1 when none is named', async () => {
      const voices = await request(testApp.app).get('/v1/audio/voices?model=espeak-ng').set('Authorization', `Bearer ${apiKey}`).expect(200);
      expect(voices.body).to.deep.equal({ model: 'espeak-ng', voices: [{ id: 'en-us', name: 'English (US)', language: 'en-US', gender: 'Unknown', description: 'test voice' }] });
      const byDefault = await request(testApp.app).get('/v1/audio/voices').set('Authorization', `Bearer ${apiKey}`).expect(200);
      expect(byDefault.body.model).to.equal('tts-1');
    });

    it('answers an unknown /v1 path 404 in OpenAI shape', async () => {
      const response = await request(testApp.app).get('/v1/engines').set('Authorization', `Bearer ${apiKey}`).expect(404);
      expectOpenAiError(response.body, 'invalid_request_error');
    });
  });

  describe('POST /api/v1/common/tts-stream', () => {
    beforeEach(() => start());

    it('answers the audio bytes progressively with the spec body', async () => {
      const response = await request(testApp.app)
        .post('/api/v1/common/tts-stream')
        .set('X-API-Key', apiKey)
        .send({ model: 'espeak-ng', text: 'Hello world', voice: 'en-us', format: 'wav' })
        .buffer(true)
        .parse((res, callback) => {
          const parts: Buffer[] = [];
          res.on('data', (part: Buffer) => parts.push(part));
          res.on('end', () => callback(null, Buffer.concat(parts)));
        })
        .expect(200);
      expect(response.headers['content-type']).to.equal('audio/wav');
      expect((response.body as Buffer).toString()).to.equal('audio for Hello world');
    });

    it('keeps the spec envelope for errors', async () => {
      const response = await request(testApp.app).post('/api/v1/common/tts-stream').set('X-API-Key', apiKey).send({ model: 'espeak-ng', voice: 'en-us', text: '' }).expect(400);
      expect(response.body.success).to.equal(false);
      expect(response.body.error.code).to.equal('TTS_ERR_VALIDATION');
    });
  });
});
