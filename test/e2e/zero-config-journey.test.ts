import { expect } from 'chai';
import request from 'supertest';
import { sniffAudioFormat } from '../../core';
import { countMp3Frames, decodeForTest, durationSeconds } from '../support/audio-analysis';
import { startTestGateway } from './gateway-harness';

/** A new user's journey on a fresh gateway: register, list, synthesize, download. */
describe('e2e: zero-config gateway on the embedded engine', function () {
  this.timeout(180_000);
  let harness: Awaited<ReturnType<typeof startTestGateway>>;
  let apiKey: string;

  before(async () => {
    harness = await startTestGateway();
    const registered = await request(harness.gateway.app).post('/api/v1/auth/register').send({ email: 'new.user@example.com', password: 'correct horse battery' });
    expect(registered.status).to.equal(200);
    apiKey = registered.body.data.apiKey;
  });
  after(async () => harness?.dispose());

  const synthesize = (body: Record<string, unknown>) =>
    request(harness.gateway.app).post('/api/v1/common/tts-sync').set('X-API-Key', apiKey).send(body);
  const download = async (audioUrl: string) => {
    const path = new URL(audioUrl).pathname;
    return request(harness.gateway.app).get(path).buffer(true).parse((response, done) => {
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () => done(null, Buffer.concat(parts)));
    });
  };

  it('lists the embedded model, the OpenAI aliases that it serves, and its voices', async () => {
    const models = await request(harness.gateway.app).get('/api/v1/tools/models').set('X-API-Key', apiKey);
    expect(models.body.data).to.deep.equal(['espeak-ng', 'gpt-4o-mini-tts', 'tts-1', 'tts-1-hd']);
    const voices = await request(harness.gateway.app).get('/api/v1/tools/voices/espeak-ng').set('X-API-Key', apiKey);
    expect(voices.body.data.length).to.be.greaterThan(100);
    expect(voices.body.data.map((voice: { voiceId: string }) => voice.voiceId)).to.include('en-us');
  });

  it('synthesizes real MP3 speech whose link downloads exactly file_size bytes', async () => {
    const response = await synthesize({ model: 'espeak-ng', voice: 'en-us', text: 'Hello from the gateway. This is real speech.' });
    expect(response.status).to.equal(200);
    expect(response.headers['x-request-id']).to.equal(response.body.data.request_id);
    expect(response.body.data.audio_url).to.match(/^http:\/\/gateway\.test\/api\/v1\/audio\/download\/[A-Za-z0-9_-]{22,}\.mp3$/);
    const file = await download(response.body.data.audio_url);
    expect(file.status).to.equal(200);
    expect(file.headers['content-type']).to.equal('audio/mpeg');
    const bytes = new Uint8Array(file.body as Buffer);
    expect(bytes.byteLength).to.equal(response.body.data.file_size);
    expect(countMp3Frames(bytes)).to.be.greaterThan(20);
    expect(durationSeconds(await decodeForTest(bytes, 'mp3'))).to.be.greaterThan(1.5);
  });

  for (const format of ['wav', 'mp3', 'opus', 'flac', 'pcm'] as const) {
    it(`answers format ${format} with bytes that really are ${format}`, async () => {
      const response = await synthesize({ model: 'espeak-ng', voice: 'en-us', text: 'Format check.', format, pitch: 1.5 });
      expect(response.status).to.equal(200);
      expect(response.body.data.audio_url.endsWith(`.${format}`)).to.equal(true);
      const file = await download(response.body.data.audio_url);
      const bytes = new Uint8Array(file.body as Buffer);
      if (format === 'pcm') {
        const rate = Number(/rate=(\d+)/.exec(String(file.headers['content-type']))?.[1]);
        expect(rate).to.be.greaterThan(7999);
        expect(durationSeconds(await decodeForTest(bytes, 'pcm', rate))).to.be.greaterThan(0.3);
      } else {
        expect(sniffAudioFormat(bytes)).to.equal(format);
        expect(durationSeconds(await decodeForTest(bytes, format))).to.be.greaterThan(0.3);
      }
    });
  }

  it('accepts 10,000 characters as one continuous file and refuses 10,001', async () => {
    const sentence = 'The gateway splits long text at sentence boundaries. ';
    const text = sentence.repeat(Math.ceil(10_000 / sentence.length)).slice(0, 10_000);
    const tooLong = await synthesize({ model: 'espeak-ng', voice: 'en-us', text: `${text}x` });
    expect(tooLong.status).to.equal(400);
    expect(tooLong.body.error.details[0].field).to.equal('text');
    const response = await synthesize({ model: 'espeak-ng', voice: 'en-us', text, format: 'mp3' });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    const chunks = Number(/chunks=(\d+)/.exec(response.headers['x-tts-applied'])?.[1]);
    expect(chunks).to.be.greaterThan(1);
    const file = await download(response.body.data.audio_url);
    const decoded = await decodeForTest(new Uint8Array(file.body as Buffer), 'mp3');
    // About 14 characters a second at eSpeak's default rate: 10,000 characters last minutes.
    expect(durationSeconds(decoded)).to.be.within(400, 1200);
  });

  it('keeps serving after bad input', async () => {
    const bad = await request(harness.gateway.app).post('/api/v1/common/tts-sync').set('X-API-Key', apiKey).set('content-type', 'application/json').send('{"model":');
    expect(bad.status).to.equal(400);
    expect(bad.body.success).to.equal(false);
    const unknownVoice = await synthesize({ model: 'espeak-ng', voice: 'xx-nope', text: 'Hi.' });
    expect(unknownVoice.status).to.equal(404);
    const fine = await synthesize({ model: 'espeak-ng', voice: 'en-us', text: 'Still here.' });
    expect(fine.status).to.equal(200);
  });
});
