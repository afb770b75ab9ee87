import { expect } from 'chai';
import request from 'supertest';
import { decodeAudio, encodableFormats } from '../../core';
import { wholeFramesLength } from '../../core/audio/frame-walker';
import { startTestGateway } from './gateway-harness';

const SENTENCES = Array.from({ length: 30 }, (_value, index) => `Sentence number ${index + 1} is read out for the cache.`).join(' ');

/** Whether the bytes begin where an MP3 or ADTS frame, or an Ogg page, begins. */
function startsAtHeader(bytes: Buffer, format: 'mp3' | 'aac' | 'opus'): boolean {
  if (format === 'opus') return bytes.subarray(0, 4).toString('latin1') === 'OggS';
  return bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0;
}

/**
 * A stream served from the result cache went out in fixed 64 KiB slices, so its SSE deltas ended
 * in the middle of a frame, while a live stream's deltas are whole frames (clients decode each
 * delta on its own). A hit's deltas now start at a frame (page) and end where one ends.
 */
describe('e2e: the SSE deltas of a stream served from the result cache', function () {
  this.timeout(120_000);
  let harness: Awaited<ReturnType<typeof startTestGateway>>;
  let apiKey: string;

  before(async () => {
    harness = await startTestGateway();
    apiKey = (await request(harness.gateway.app).post('/api/v1/auth/register').send({ email: 'deltas@example.com', password: 'correct horse battery' })).body.data.apiKey;
  });
  after(async () => harness?.dispose());

  const deltasOf = async (format: string) => {
    const response = await request(harness.gateway.app)
      .post('/v1/audio/speech')
      .set('Authorization', `Bearer ${apiKey}`)
      .send({ model: 'tts-1', voice: 'alloy', input: SENTENCES, response_format: format, stream_format: 'sse' })
      .buffer(true)
      .parse((answer, done) => {
        const parts: Buffer[] = [];
        answer.on('data', (part: Buffer) => parts.push(part));
        answer.on('end', () => done(null, Buffer.concat(parts)));
      })
      .expect(200);
    const events = (response.body as Buffer).toString().split('\n\n').filter(Boolean).map((block) => JSON.parse(block.replace(/^data: /, '')) as { type: string; audio?: string });
    expect(events.at(-1)?.type).to.equal('speech.audio.done');
    return { cache: response.headers['x-tts-cache'], deltas: events.filter((event) => event.type === 'speech.audio.delta').map((event) => Buffer.from(event.audio!, 'base64')) };
  };

  for (const format of ['mp3', 'opus', 'aac'] as const) {
    it(`sends a ${format} hit in deltas of whole frames, as the miss before it`, async function () {
      if (!encodableFormats().includes(format)) this.skip();
      const miss = await deltasOf(format);
      const hit = await deltasOf(format);
      expect([miss.cache, hit.cache]).to.deep.equal(['miss', 'hit']);
      const whole = Buffer.concat(hit.deltas);
      expect(Buffer.compare(whole, Buffer.concat(miss.deltas)), 'the hit is the miss, byte for byte').to.equal(0);
      expect(whole.byteLength, 'long enough for more than one slice').to.be.greaterThan(3 * 64 * 1024);
      expect(hit.deltas.length).to.be.greaterThan(2);
      hit.deltas.forEach((delta, index) => {
        expect(startsAtHeader(delta, format), `delta ${index} starts at a frame`).to.equal(true);
        expect(wholeFramesLength(delta, format), `delta ${index} ends where a frame ends`).to.equal(delta.byteLength);
      });
      if (format === 'mp3') for (const delta of hit.deltas) expect((await decodeAudio(new Uint8Array(delta), 'mp3')).samples.length).to.be.greaterThan(0);
    });
  }
});
