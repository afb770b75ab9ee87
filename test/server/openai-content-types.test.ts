import { expect } from 'chai';
import request from 'supertest';
import { buildTestApp, type TestApp } from './support/test-app';

const SPEECH = { model: 'tts-1', input: 'Hello world', voice: 'alloy' };

/** The Content-Type of each `response_format`: what the bytes are (Ogg Opus is `audio/ogg`, RFC 7845), with OpenAI-compatible servers' `audio/pcm`. */
const OPENAI_CONTENT_TYPES = { mp3: 'audio/mpeg', opus: 'audio/ogg; codecs=opus', aac: 'audio/aac', flac: 'audio/flac', wav: 'audio/wav', pcm: 'audio/pcm' } as const;

describe('server /v1/audio/speech: the Content-Type of each response_format', () => {
  let testApp: TestApp;
  let apiKey: string;

  before(async () => {
    testApp = await buildTestApp();
    ({ apiKey } = await testApp.register());
  });
  after(() => testApp.close());

  for (const [format, contentType] of Object.entries(OPENAI_CONTENT_TYPES)) {
    it(`answers ${format} as ${contentType}`, async () => {
      const response = await request(testApp.app).post('/v1/audio/speech').set('Authorization', `Bearer ${apiKey}`).send({ ...SPEECH, response_format: format }).expect(200);
      // pcm is little-endian: audio/L16 names big-endian samples (RFC 2586), so a player that trusts it plays noise.
      expect(response.headers['content-type']).to.equal(contentType);
    });
  }
});
