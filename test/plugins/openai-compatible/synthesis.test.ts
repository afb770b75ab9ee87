import { expect } from 'chai';
import { replayFixture } from '../../support/nock-fixtures';
import { createProvider, LOCALAI_URL, synthesisRequest, TEST_KEY } from './harness';

const ascii = (bytes: Uint8Array, start: number, end: number) => Buffer.from(bytes.subarray(start, end)).toString('latin1');

describe('openai-compatible plugin: synthesis', () => {
  it('posts the OpenAI body with native speed and returns mp3', async () => {
    const replay = await replayFixture('openai-compatible', 'speech-mp3-speed');
    try {
      const result = await (await createProvider()).synthesize(synthesisRequest({ speed: 1.5 }));
      expect(result.format).to.equal('mp3');
      expect(ascii(result.audio, 0, 3)).to.equal('ID3');
      const sent = replay.requests[0];
      expect(sent.path).to.equal('/v1/audio/speech');
      expect(sent.headers['content-type']).to.equal('application/json');
      expect(sent.headers).to.not.have.property('authorization');
      expect(JSON.parse(sent.body)).to.deep.equal({ model: 'kokoro', input: 'Hello.', voice: 'af_bella', response_format: 'mp3', speed: 1.5 });
    } finally {
      replay.done();
    }
  });

  it('sends the server\'s own model id for a prefixed name, before any listing', async () => {
    const replay = await replayFixture('openai-compatible', 'speech-wav-prefixed');
    try {
      const provider = await createProvider({ modelPrefix: 'kokoro' });
      const result = await provider.synthesize(synthesisRequest({ model: 'kokoro-tts-1', voice: 'bm_george', format: 'wav' }));
      expect(result.format).to.equal('wav');
      expect(ascii(result.audio, 0, 4)).to.equal('RIFF');
      expect(JSON.parse(replay.requests[0].body).model).to.equal('tts-1');
    } finally {
      replay.done();
    }
  });

  it('maps a sanitised configured name back to the server id and sends the key', async () => {
    const replay = await replayFixture('openai-compatible', 'localai-speech-opus');
    try {
      const provider = await createProvider({ baseUrl: LOCALAI_URL, apiKey: TEST_KEY, models: ['piper/en_US-amy-low'], voices: ['amy'] }, 'localai');
      const [model] = await provider.models();
      expect(model.name).to.equal('piper-en_US-amy-low');
      const result = await provider.synthesize(synthesisRequest({ model: model.name, voice: 'amy', format: 'opus' }));
      expect(result.format).to.equal('opus');
      expect(ascii(result.audio, 0, 4)).to.equal('OggS');
      expect(replay.requests[0].headers.authorization).to.equal(`Bearer ${TEST_KEY}`);
    } finally {
      replay.done();
    }
  });

  it('reports the configured pcm sample rate', async () => {
    const replay = await replayFixture('openai-compatible', 'speech-pcm');
    try {
      const result = await (await createProvider()).synthesize(synthesisRequest({ format: 'pcm' }));
      expect(result.format).to.equal('pcm');
      expect(result.sampleRate).to.equal(24000);
      expect(result.audio.byteLength % 2).to.equal(0);
      expect(JSON.parse(replay.requests[0].body)).to.not.have.property('speed');
    } finally {
      replay.done();
    }
  });
});
