import { expect } from 'chai';
import { sniffAudioFormat, type AudioFormat } from '../../../core';
import { replayFixture } from '../../support/nock-fixtures';
import { createProvider, synthesisRequest } from './harness';

const cases: readonly { format: AudioFormat; query: string; text: string }[] = [
  { format: 'mp3', query: 'encoding=mp3', text: 'Hello from Deepgram.' },
  { format: 'wav', query: 'encoding=linear16&container=wav&sample_rate=24000', text: 'Hello.' },
  { format: 'opus', query: 'encoding=opus&container=ogg', text: 'Hello from Deepgram.' },
  { format: 'flac', query: 'encoding=flac', text: 'Hello.' },
  { format: 'aac', query: 'encoding=aac', text: 'Hello from Deepgram.' },
];

describe('deepgram plugin: synthesis', () => {
  for (const { format, query, text } of cases) {
    it(`asks for ${format} as ${query} with the voice as the model, and gets ${format} bytes`, async () => {
      const replay = await replayFixture('deepgram', `synthesize-${format}`);
      try {
        const provider = await createProvider();
        const result = await provider.synthesize(synthesisRequest({ format, text }));
        expect(result.format).to.equal(format);
        expect(sniffAudioFormat(result.audio)).to.equal(format);
        expect(result.warnings).to.deep.equal([]);
        const sent = replay.requests[0];
        expect(sent.method).to.equal('POST');
        expect(sent.path).to.equal(`/v1/speak?model=aura-2-thalia-en&${query}`);
        expect(sent.headers.authorization).to.equal('Token dg-test-key-0123456789');
        expect(sent.headers['content-type']).to.equal('application/json');
        expect(JSON.parse(sent.body)).to.deep.equal({ text });
      } finally {
        replay.done();
      }
    });
  }

  it('asks for raw linear16 at 24 kHz for pcm and reports the rate', async () => {
    const replay = await replayFixture('deepgram', 'synthesize-pcm');
    try {
      const provider = await createProvider({ baseUrl: 'https://api.deepgram.com/v1/' });
      const result = await provider.synthesize(synthesisRequest({ model: 'aura', voice: 'aura-asteria-en', format: 'pcm', text: 'Hello.' }));
      expect(result).to.include({ format: 'pcm', sampleRate: 24000 });
      expect(result.audio.byteLength % 2).to.equal(0);
      expect(replay.requests[0].path).to.equal('/v1/speak?model=aura-asteria-en&encoding=linear16&container=none&sample_rate=24000');
    } finally {
      replay.done();
    }
  });

  it('refuses a voice of another family before calling Deepgram', async () => {
    const provider = await createProvider();
    const error = await provider.synthesize(synthesisRequest({ model: 'aura', voice: 'aura-2-thalia-en' })).catch((caught: unknown) => caught);
    expect(error).to.have.property('code', 'TTS_ERR_VOICE_NOT_FOUND');
  });
});
