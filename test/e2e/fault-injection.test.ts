import { expect } from 'chai';
import request from 'supertest';
import { decodeAudio, sniffAudioFormat } from '../../core';
import { readWavInfo } from '../../core/audio/decode/wav-decoder';
import { expectErrorEnvelope } from '../server/support/test-app';
import { startFaultGateway, type FaultGateway } from './fault-gateway';
import { ScriptedUpstream, step, WAV_STEP_RATE, type SpeechStep } from './scripted-upstream';

/**
 * The reliability layer against a real HTTP stand-in behind the `openai-compatible` plugin.
 * Deadlines are shown by attempt counts and by which error answers, never by measuring time:
 * a deadline too short for a retry means one attempt; a provider timeout shorter than the
 * deadline means every retry happens.
 */
describe('e2e: fault injection through openai-compatible', function () {
  this.timeout(60_000);
  let upstream: ScriptedUpstream;
  before(async () => {
    upstream = await ScriptedUpstream.start();
  });
  after(async () => upstream?.close());

  describe('retries within the deadline (provider timeout 300 ms, deadline 5 s, 2 retries)', () => {
    let subject: FaultGateway;
    before(async () => {
      subject = await startFaultGateway(
        upstream.url,
        { synthesis: { timeout: '5s' }, resilience: { retries: 2, backoff: '1ms', maxBackoff: '5ms', breaker: { failures: 100 } } },
        { timeoutMs: 300 },
      );
    });
    after(async () => subject?.dispose());

    const cases: [name: string, steps: SpeechStep[], status: number, code: string | undefined, attempts: number][] = [
      ['a 500 then audio', [step.status(500, '{"detail":"internal error"}'), step.audio], 200, undefined, 2],
      ['a 503 three times', [step.status(503), step.status(503), step.status(503)], 502, 'TTS_ERR_UPSTREAM', 3],
      ['a connection reset then audio', [step.reset, step.audio], 200, undefined, 2],
      ['a connection reset three times', [step.reset, step.reset, step.reset], 503, 'TTS_ERR_UNAVAILABLE', 3],
      ['a 400', [step.status(400, '{"detail":"voice not found"}'), step.audio], 502, 'TTS_ERR_UPSTREAM', 1],
      [
        'a billing stop (429 insufficient_quota)',
        [step.status(429, '{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}', { 'retry-after': '1' }), step.audio],
        502,
        'TTS_ERR_UPSTREAM_QUOTA',
        1,
      ],
      ['JSON instead of audio, then audio', [step.json, step.audio], 200, undefined, 2],
      ['zero bytes three times', [step.empty, step.empty, step.empty], 502, 'TTS_ERR_UPSTREAM_BAD_RESPONSE', 3],
      ['a truncated body then audio', [step.truncated, step.audio], 200, undefined, 2],
      ['a hang (each attempt cut by the provider timeout)', [step.hang, step.hang, step.hang], 504, 'TTS_ERR_TIMEOUT', 3],
      ['a slow drip then audio', [step.drip, step.audio], 200, undefined, 2],
      ['bytes of no known audio format, then audio', [step.noise, step.audio], 200, undefined, 2],
      ['bytes of no known audio format three times', [step.noise, step.noise, step.noise], 502, 'TTS_ERR_UPSTREAM_BAD_RESPONSE', 3],
    ];
    for (const [name, steps, status, code, attempts] of cases) {
      it(`${name}: ${status} after ${attempts} upstream attempt(s)${status === 200 ? '' : ', nothing stored'}`, async () => {
        upstream.script(...steps);
        upstream.fallback = step.audio;
        const before = subject.storedFiles().length;
        const response = await subject.synthesize({ format: 'mp3' });
        expect(response.status, JSON.stringify(response.body)).to.equal(status);
        expect(upstream.speechAttempts).to.equal(attempts);
        if (code) {
          expectErrorEnvelope(response.body, code);
          expect(subject.storedFiles()).to.have.length(before);
        } else {
          expect(subject.storedFiles()).to.have.length(before + 1);
        }
      });
    }

    it('a 400 carries the upstream status in the details, and is never retried', async () => {
      upstream.script(step.status(400, '{"detail":"input too long"}'));
      const response = await subject.synthesize({});
      expect(expectErrorEnvelope(response.body, 'TTS_ERR_UPSTREAM').details[0]).to.include({ upstreamStatus: 400 });
      expect(upstream.speechAttempts).to.equal(1);
    });

    it('a 429 with Retry-After: 1 is waited out and retried', async () => {
      upstream.script(step.status(429, '{"error":{"message":"Rate limit reached"}}', { 'retry-after': '1' }), step.audio);
      const response = await subject.synthesize({});
      expect(response.status).to.equal(200);
      expect(upstream.speechAttempts).to.equal(2);
    });

    it('a 429 whose Retry-After ends past the deadline is answered 429 with that Retry-After, after one attempt', async () => {
      upstream.script(step.status(429, '{"error":{"message":"Rate limit reached"}}', { 'retry-after': '30' }), step.audio);
      const response = await subject.synthesize({});
      expect(response.status).to.equal(429);
      expect(response.headers['retry-after']).to.equal('30');
      expectErrorEnvelope(response.body, 'TTS_ERR_RATE_LIMITED');
      expect(upstream.speechAttempts).to.equal(1);
    });

    const streamRequest = (format = 'mp3') =>
      request(subject.gateway.app)
        .post('/api/v1/common/tts-stream')
        .set('X-API-Key', subject.apiKey)
        .send({ model: 'tts-1', voice: 'alloy', text: 'Hello from the fault suite.', format })
        .buffer(true)
        .parse((stream, done) => {
          const parts: Buffer[] = [];
          stream.on('data', (part: Buffer) => parts.push(part));
          stream.on('end', () => done(null, Buffer.concat(parts)));
        });

    it('tts-stream: a failure before the first audio is retried, and the audio streams', async () => {
      upstream.script(step.status(503), step.reset, step.audio);
      const response = await streamRequest();
      expect(response.status).to.equal(200);
      expect(upstream.speechAttempts).to.equal(3);
      expect(sniffAudioFormat(new Uint8Array(response.body as Buffer))).to.equal('mp3');
    });

    it('tts-stream: a connection cut after the first audio is not retried; the answer is cut too', async () => {
      upstream.script(step.truncated, step.audio);
      const failure = await streamRequest().then(
        () => undefined,
        (error: Error) => error,
      );
      // The audio had begun: the only honest signal left to the client is the dropped connection.
      expect(failure, 'the client should see the connection cut').to.be.instanceOf(Error);
      expect(upstream.speechAttempts).to.equal(1);
    });

    it('a WAV answered for pcm is stored as its samples, at the WAV’s sample rate', async () => {
      upstream.script(step.wav);
      const response = await subject.synthesize({ format: 'pcm' });
      expect(response.status).to.equal(200);
      const file = await request(subject.gateway.app).get(new URL(response.body.data.audio_url).pathname).buffer(true).parse((stream, done) => {
        const parts: Buffer[] = [];
        stream.on('data', (part: Buffer) => parts.push(part));
        stream.on('end', () => done(null, Buffer.concat(parts)));
      });
      const info = readWavInfo(upstream.wavBytes);
      const samples = upstream.wavBytes.subarray(info.dataOffset, info.dataOffset + info.dataBytes);
      expect(Number(/rate=(\d+)/.exec(String(file.headers['content-type']))?.[1])).to.equal(WAV_STEP_RATE);
      expect(Buffer.compare(file.body as Buffer, Buffer.from(samples))).to.equal(0);
      expect(response.body.data.file_size).to.equal(samples.byteLength);
      // The samples went out as they came (native), and the header says they came in a WAV.
      expect(response.headers['x-tts-applied']).to.equal('speed=default; pitch=default; volume=default; format=native; chunks=1; received=wav');
    });

    const download = (audioUrl: string) =>
      request(subject.gateway.app)
        .get(new URL(audioUrl).pathname)
        .buffer(true)
        .parse((stream, done) => {
          const parts: Buffer[] = [];
          stream.on('data', (part: Buffer) => parts.push(part));
          stream.on('end', () => done(null, Buffer.concat(parts)));
        });

    it('mp3 asked, a WAV answered: decoded as the WAV it is, encoded to mp3, and X-TTS-Applied says so', async () => {
      upstream.script(step.wav);
      const response = await subject.synthesize({ format: 'mp3' });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(upstream.speechAttempts).to.equal(1);
      expect(response.headers['x-tts-applied']).to.equal('speed=default; pitch=default; volume=default; format=transcoded; chunks=1; received=wav');
      const file = await download(response.body.data.audio_url);
      expect(sniffAudioFormat(new Uint8Array(file.body as Buffer))).to.equal('mp3');
      const stored = await decodeAudio(new Uint8Array(file.body as Buffer), 'mp3');
      // A quarter of a second of tone, give or take the encoder's padding.
      expect(stored.samples.length / stored.sampleRate).to.be.within(0.2, 0.35);
    });

    it('pcm asked, an mp3 answered: decoded to its samples, and X-TTS-Applied says so', async () => {
      upstream.script(step.other('mp3'));
      const response = await subject.synthesize({ format: 'pcm' });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(upstream.speechAttempts).to.equal(1);
      expect(response.headers['x-tts-applied']).to.equal('speed=default; pitch=default; volume=default; format=transcoded; chunks=1; received=mp3');
      const file = await download(response.body.data.audio_url);
      const decoded = await decodeAudio(upstream.audioBytes('mp3'), 'mp3');
      const rate = Number(/rate=(\d+)/.exec(String(file.headers['content-type']))?.[1]);
      const stored = (file.body as Buffer).byteLength;
      // The stored bytes are the mp3's samples (16-bit mono), not the mp3 file itself.
      expect(sniffAudioFormat(new Uint8Array(file.body as Buffer))).to.equal(undefined);
      expect(stored / 2 / rate).to.be.closeTo(decoded.samples.length / decoded.sampleRate, 0.01);
    });

    it('tts-stream: mp3 asked, a WAV answered: the stream is the WAV encoded to mp3, and X-TTS-Applied says so', async () => {
      upstream.script(step.wav);
      const response = await streamRequest();
      expect(response.status).to.equal(200);
      expect(upstream.speechAttempts).to.equal(1);
      expect(response.headers['x-tts-applied']).to.equal('speed=default; pitch=default; volume=default; format=transcoded; chunks=1; received=wav');
      expect(sniffAudioFormat(new Uint8Array(response.body as Buffer))).to.equal('mp3');
    });

    it('tts-stream: pcm asked, a WAV answered: the stream is its samples, without the header', async () => {
      upstream.script(step.wav);
      const response = await streamRequest('pcm');
      expect(response.status).to.equal(200);
      expect(response.headers['x-tts-applied']).to.equal('speed=default; pitch=default; volume=default; format=transcoded; chunks=1; received=wav');
      expect(Number(/rate=(\d+)/.exec(String(response.headers['content-type']))?.[1])).to.equal(WAV_STEP_RATE);
      const body = response.body as Buffer;
      const info = readWavInfo(upstream.wavBytes);
      expect(sniffAudioFormat(new Uint8Array(body))).to.equal(undefined);
      expect(body.byteLength).to.equal(info.dataBytes);
    });
  });

  describe('a deadline shorter than the provider timeout (deadline 400 ms, provider timeout 30 s)', () => {
    let subject: FaultGateway;
    before(async () => {
      subject = await startFaultGateway(upstream.url, { synthesis: { timeout: '400ms' }, resilience: { retries: 2, backoff: '1ms', maxBackoff: '5ms' } }, { timeoutMs: 30_000 });
    });
    after(async () => subject?.dispose());

    for (const [name, fault] of [
      ['a hanging provider', step.hang],
      ['a slow drip', step.drip],
    ] as const) {
      it(`answers ${name} 504 at the deadline, with no retry and nothing stored`, async () => {
        upstream.script(fault, step.audio);
        const response = await subject.synthesize({});
        expect(response.status).to.equal(504);
        expectErrorEnvelope(response.body, 'TTS_ERR_TIMEOUT');
        expect(upstream.speechAttempts).to.equal(1);
        expect(subject.storedFiles()).to.deep.equal([]);
      });
    }
  });

  describe('circuit breaker (2 failures, half-open after 300 ms, no retries)', () => {
    let subject: FaultGateway;
    before(async () => {
      subject = await startFaultGateway(upstream.url, { resilience: { retries: 0, breaker: { failures: 2, halfOpenAfter: '300ms' } } });
    });
    after(async () => subject?.dispose());

    it('opens after two failed requests, fails fast with 503 and Retry-After, then lets one trial through', async () => {
      upstream.script(step.status(500), step.status(500));
      upstream.fallback = step.audio;
      expect((await subject.synthesize({})).status).to.equal(502);
      expect((await subject.synthesize({})).status).to.equal(502);
      const open = await subject.synthesize({});
      expect(open.status).to.equal(503);
      expect(open.headers['retry-after']).to.equal('1');
      expect(expectErrorEnvelope(open.body, 'TTS_ERR_UNAVAILABLE').details[0]).to.include({ reason: 'circuit_open', provider: 'kokoro' });
      expect(upstream.speechAttempts).to.equal(2);
      await new Promise((resolve) => setTimeout(resolve, 350));
      const trial = await subject.synthesize({});
      expect(trial.status).to.equal(200);
      expect(upstream.speechAttempts).to.equal(3);
      expect((await subject.synthesize({})).status).to.equal(200);
      expect(upstream.speechAttempts).to.equal(4);
    });
  });

  describe('limits, quota and usage (3 requests per minute, 40 characters per day)', () => {
    let subject: FaultGateway;
    before(async () => {
      subject = await startFaultGateway(upstream.url, { limits: { requestsPerMinute: 3, charactersPerDay: 40 }, resilience: { retries: 1, backoff: '1ms', maxBackoff: '1ms' } });
    });
    after(async () => subject?.dispose());

    it('refuses a request over the daily characters before any upstream call, and reports usage totals', async () => {
      upstream.script(step.audio, step.status(503), step.status(503));
      upstream.fallback = step.audio;
      const first = await subject.synthesize({ text: 'Twenty characters!!!' });
      expect(first.status).to.equal(200);
      expect(first.headers['ratelimit-policy']).to.equal('"account-minute";q=3;w=60, "account-day";q=40;qu="characters";w=86400');
      const failed = await subject.synthesize({ text: 'Ten chars.' });
      expect(failed.status).to.equal(502);
      expect(upstream.speechAttempts).to.equal(3);
      // The failed request gave its characters back: 20 are left, 21 are refused without a call.
      const refused = await subject.synthesize({ text: 'Twenty-one characters' });
      expect(refused.status).to.equal(429);
      expect(refused.headers['ratelimit']).to.match(/"account-day";r=20;t=\d+/);
      expect(upstream.speechAttempts).to.equal(3);
      // Two requests counted in the minute (the refused one was not): a third fits, a fourth does not.
      expect((await subject.synthesize({ text: 'Short.' })).status).to.equal(200);
      const overMinute = await subject.synthesize({ text: 'Tiny' });
      expect(overMinute.status).to.equal(429);
      expect(expectErrorEnvelope(overMinute.body, 'TTS_ERR_RATE_LIMITED').details[0]).to.include({ policy: 'account-minute' });

      const usage = await request(subject.gateway.app).get('/api/v1/usage').set('X-API-Key', subject.apiKey).expect(200);
      const totals = usage.body.data.totals;
      expect(totals).to.include({ requests: 3, characters: 26, cacheHits: 0, errors: 1 });
      // Two answers of the same recorded utterance (about 0.65 s each).
      expect(totals.audioSeconds).to.be.within(1, 2);
      expect(usage.body.data.byModel.map((row: { model: string }) => row.model)).to.deep.equal(['tts-1']);
    });
  });

  describe('usage with the result cache on', () => {
    let subject: FaultGateway;
    before(async () => {
      subject = await startFaultGateway(upstream.url, { cache: { results: { enabled: true } } });
    });
    after(async () => subject?.dispose());

    it('counts a cache hit as a request with its characters and audio, without an upstream call', async () => {
      upstream.script();
      upstream.fallback = step.audio;
      const first = await subject.synthesize({ text: 'Cached twice.' });
      const second = await subject.synthesize({ text: 'Cached twice.' });
      expect([first.status, second.status]).to.deep.equal([200, 200]);
      expect(second.headers['x-tts-cache']).to.equal('hit');
      expect(upstream.speechAttempts).to.equal(1);
      const usage = await request(subject.gateway.app).get('/api/v1/usage').set('X-API-Key', subject.apiKey).expect(200);
      expect(usage.body.data.totals).to.include({ requests: 2, characters: 26, cacheHits: 1, errors: 0 });
      expect(usage.body.data.totals.audioSeconds).to.be.within(1, 2);
    });
  });

  describe('re-listing: a provider down at start', () => {
    let subject: FaultGateway;
    after(async () => {
      upstream.modelsAvailable = true;
      await subject?.dispose();
    });

    it('starts without its models, asks again in the background and serves them once it answers', async () => {
      upstream.modelsAvailable = false;
      upstream.modelListings = 0;
      subject = await startFaultGateway(
        upstream.url,
        { resilience: { relisting: { initialDelay: '20ms', maxDelay: '40ms' } }, routes: [{ name: 'narrator', targets: [{ model: 'tts-1', voices: { default: 'alloy' } }] }] },
        { models: undefined },
      );
      const models = () => request(subject.gateway.app).get('/api/v1/tools/models').set('X-API-Key', subject.apiKey);
      expect((await models()).body.data).to.deep.equal([]);
      expect((await subject.synthesize({ model: 'narrator', voice: 'default' })).status).to.equal(404);
      expect((await subject.synthesize({})).status).to.equal(404);
      // Still down for a while: the gateway keeps asking.
      for (let tries = 0; tries < 200 && upstream.modelListings < 3; tries += 1) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(upstream.modelListings).to.be.at.least(3);
      upstream.modelsAvailable = true;
      upstream.script();
      upstream.fallback = step.audio;
      let listed: string[] = [];
      for (let tries = 0; tries < 200 && !listed.includes('tts-1'); tries += 1) {
        listed = (await models()).body.data as string[];
        if (!listed.includes('tts-1')) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // Its route, without a served target until now, is in force too.
      expect(listed).to.deep.equal(['tts-1', 'narrator']);
      expect((await subject.synthesize({})).status).to.equal(200);
      const routed = await subject.synthesize({ model: 'narrator', voice: 'default' });
      expect(routed.status).to.equal(200);
      expect(routed.headers['x-tts-served-by']).to.equal('tts-1/alloy');
    });
  });

  describe('auth hardening on the composed gateway', () => {
    let subject: FaultGateway;
    before(async () => {
      subject = await startFaultGateway(upstream.url, { auth: { throttle: { failures: 3 } } });
    });
    after(async () => subject?.dispose());

    it('throttles wrong passwords and issues login keys that carry an expiry', async () => {
      const login = (password: string) => request(subject.gateway.app).post('/api/v1/auth/login').send({ email: 'faults@example.com', password });
      const loggedIn = await login('password-123').expect(200);
      expect(loggedIn.body.data.expiresAt - Date.now()).to.be.within(29 * 86_400_000, 30 * 86_400_000);
      for (let attempt = 0; attempt < 3; attempt += 1) await login('not-the-password').expect(401);
      const blocked = await login('password-123').expect(429);
      expect(Number(blocked.headers['retry-after'])).to.be.greaterThan(0);
    });
  });
});
