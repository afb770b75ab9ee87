import { expect } from 'chai';
import { replayFixture } from '../../support/nock-fixtures';
import { createProvider, synthesisRequest, TEST_KEY } from './harness';

const ascii = (bytes: Uint8Array, start: number, end: number) => Buffer.from(bytes.subarray(start, end)).toString('latin1');

describe('openai plugin: synthesis', () => {
  it('posts the mapped request and returns mp3 with the credentials in the Authorization header', async () => {
    const replay = await replayFixture('openai', 'speech-mp3');
    try {
      const provider = await createProvider();
      const result = await provider.synthesize(synthesisRequest());
      expect(result.format).to.equal('mp3');
      expect(result.sampleRate).to.equal(undefined);
      expect(ascii(result.audio, 0, 3)).to.equal('ID3');
      expect(result.warnings).to.deep.equal([]);
      const sent = replay.requests[0];
      expect(sent.method).to.equal('POST');
      expect(sent.path).to.equal('/v1/audio/speech');
      expect(sent.headers.authorization).to.equal(`Bearer ${TEST_KEY}`);
      expect(sent.headers['content-type']).to.equal('application/json');
      expect(sent.headers['x-client-request-id']).to.equal('test-request-1');
      expect(sent.headers).to.not.have.property('openai-organization');
      expect(JSON.parse(sent.body)).to.deep.equal({ model: 'tts-1', input: 'Hello.', voice: 'alloy', response_format: 'mp3' });
    } finally {
      replay.done();
    }
  });

  it('accepts a base URL that already ends in /v1 and sends organization and project headers', async () => {
    const replay = await replayFixture('openai', 'speech-mp3');
    try {
      const provider = await createProvider({ baseUrl: 'https://api.openai.com/v1/', organization: 'org-abc123', project: 'proj_abc123' });
      await provider.synthesize(synthesisRequest());
      expect(replay.requests[0].path).to.equal('/v1/audio/speech');
      expect(replay.requests[0].headers['openai-organization']).to.equal('org-abc123');
      expect(replay.requests[0].headers['openai-project']).to.equal('proj_abc123');
    } finally {
      replay.done();
    }
  });

  it('sends speed natively and returns Ogg Opus', async () => {
    const replay = await replayFixture('openai', 'speech-opus');
    try {
      const provider = await createProvider();
      const result = await provider.synthesize(synthesisRequest({ voice: 'nova', format: 'opus', speed: 1.25 }));
      expect(result.format).to.equal('opus');
      expect(ascii(result.audio, 0, 4)).to.equal('OggS');
      expect(JSON.parse(replay.requests[0].body)).to.include({ speed: 1.25, response_format: 'opus' });
    } finally {
      replay.done();
    }
  });

  it('sends instructions to gpt-4o-mini-tts and returns WAV', async () => {
    const replay = await replayFixture('openai', 'speech-wav-instructions');
    try {
      const provider = await createProvider({ instructions: 'Speak in a calm, friendly tone.' });
      const result = await provider.synthesize(synthesisRequest({ model: 'gpt-4o-mini-tts', voice: 'marin', format: 'wav', speed: 2 }));
      expect(result.format).to.equal('wav');
      expect(ascii(result.audio, 0, 4)).to.equal('RIFF');
      expect(ascii(result.audio, 8, 12)).to.equal('WAVE');
      expect(JSON.parse(replay.requests[0].body).instructions).to.equal('Speak in a calm, friendly tone.');
      expect(result.warnings).to.deep.equal([]);
    } finally {
      replay.done();
    }
  });

  it('returns 24 kHz pcm and leaves instructions out for tts-1-hd, with a warning', async () => {
    const replay = await replayFixture('openai', 'speech-pcm');
    try {
      const provider = await createProvider({ instructions: 'Whisper.' });
      const result = await provider.synthesize(synthesisRequest({ model: 'tts-1-hd', voice: 'echo', format: 'pcm', speed: 0.5 }));
      expect(result.format).to.equal('pcm');
      expect(result.sampleRate).to.equal(24000);
      expect(result.audio.byteLength % 2).to.equal(0);
      expect(result.audio.byteLength).to.be.greaterThan(24000);
      expect(JSON.parse(replay.requests[0].body)).to.not.have.property('instructions');
      expect(result.warnings).to.have.length(1);
      expect(result.warnings[0]).to.include('tts-1-hd');
    } finally {
      replay.done();
    }
  });
});
