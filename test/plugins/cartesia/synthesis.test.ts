import { expect } from 'chai';
import { sniffAudioFormat } from '../../../core';
import { replayFixture } from '../../support/nock-fixtures';
import { createProvider, synthesisRequest, VOICE } from './harness';

describe('cartesia plugin: synthesis', () => {
  it('posts /tts/bytes with Bearer and Cartesia-Version; sonic-3 speed goes in generation_config', async () => {
    const replay = await replayFixture('cartesia', 'synthesize-mp3');
    try {
      const provider = await createProvider({ language: 'en' });
      const result = await provider.synthesize(synthesisRequest({ speed: 1.2 }));
      expect(result.format).to.equal('mp3');
      expect(sniffAudioFormat(result.audio)).to.equal('mp3');
      const sent = replay.requests[0];
      expect(sent).to.include({ method: 'POST', path: '/tts/bytes' });
      expect(sent.headers.authorization).to.equal('Bearer sk_car_test0123456789');
      expect(sent.headers['cartesia-version']).to.equal('2026-03-01');
      expect(sent.headers['content-type']).to.equal('application/json');
      expect(JSON.parse(sent.body)).to.deep.equal({
        model_id: 'sonic-3',
        transcript: 'Hello from Cartesia.',
        voice: { mode: 'id', id: VOICE },
        output_format: { container: 'mp3', sample_rate: 44100, bit_rate: 128000 },
        language: 'en',
        generation_config: { speed: 1.2 },
      });
    } finally {
      replay.done();
    }
  });

  it('asks for a wav container with pcm_s16le', async () => {
    const replay = await replayFixture('cartesia', 'synthesize-wav');
    try {
      const provider = await createProvider({ sampleRate: 16000 });
      const result = await provider.synthesize(synthesisRequest({ model: 'sonic-2', text: 'Hello.', format: 'wav' }));
      expect(sniffAudioFormat(result.audio)).to.equal('wav');
      expect(JSON.parse(replay.requests[0].body)).to.not.have.property('generation_config');
    } finally {
      replay.done();
    }
  });

  it('asks for raw pcm_s16le for pcm and reports the configured rate', async () => {
    const replay = await replayFixture('cartesia', 'synthesize-pcm');
    try {
      const provider = await createProvider({ sampleRate: 16000 });
      const result = await provider.synthesize(synthesisRequest({ model: 'sonic-turbo', text: 'Hello.', format: 'pcm' }));
      expect(result).to.include({ format: 'pcm', sampleRate: 16000 });
      expect(result.audio.byteLength % 2).to.equal(0);
      expect(JSON.parse(replay.requests[0].body).output_format).to.deep.equal({ container: 'raw', encoding: 'pcm_s16le', sample_rate: 16000 });
    } finally {
      replay.done();
    }
  });
});
