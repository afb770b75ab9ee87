import { expect } from 'chai';
import { replayFixture } from '../../support/nock-fixtures';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { createProvider, RACHEL, synthesisRequest, TEST_KEY } from './harness';

describe('elevenlabs plugin: synthesis', () => {
  it('posts text and model_id with the key in xi-api-key and returns mp3', async () => {
    const replay = await replayFixture('elevenlabs', 'speech-mp3');
    try {
      const provider = await createProvider();
      const result = await provider.synthesize(synthesisRequest());
      expect(result.format).to.equal('mp3');
      expect(Buffer.from(result.audio.subarray(0, 3)).toString('latin1')).to.equal('ID3');
      expect(result.warnings).to.deep.equal([]);
      const sent = replay.requests[0];
      expect(sent.path).to.equal(`/v1/text-to-speech/${RACHEL}?output_format=mp3_44100_128`);
      expect(sent.headers['xi-api-key']).to.equal(TEST_KEY);
      expect(sent.headers['content-type']).to.equal('application/json');
      expect(sent.headers).to.not.have.property('authorization');
      expect(JSON.parse(sent.body)).to.deep.equal({ text: 'Hello.', model_id: 'eleven_multilingual_v2' });
    } finally {
      replay.done();
    }
  });

  it("asks for pcm_24000 with voice_settings.speed beside the voice's stored settings and reports the sample rate", async () => {
    const replay = await replayFixture('elevenlabs', 'speech-pcm-speed');
    try {
      const provider = await createProvider();
      const result = await provider.synthesize(synthesisRequest({ model: 'eleven_flash_v2_5', format: 'pcm', speed: 1.15 }));
      expect(result.format).to.equal('pcm');
      expect(result.sampleRate).to.equal(24000);
      expect(result.audio.byteLength % 2).to.equal(0);
      expect(replay.requests[0]).to.include({ method: 'GET', path: `/v1/voices/${RACHEL}/settings` });
      expect(replay.requests[0].headers['xi-api-key']).to.equal(TEST_KEY);
      expect(replay.requests[1].path).to.equal(`/v1/text-to-speech/${RACHEL}?output_format=pcm_24000`);
      // A partial voice_settings is not documented to keep the other stored values: they go along.
      expect(JSON.parse(replay.requests[1].body).voice_settings).to.deep.equal({ stability: 0.5, similarity_boost: 0.75, style: 0, use_speaker_boost: true, speed: 1.15 });
    } finally {
      replay.done();
    }
  });

  it('uses the configured pcm sample rate', async () => {
    const replay = await replayFixture('elevenlabs', 'speech-pcm-16000');
    try {
      const provider = await createProvider({ pcmSampleRate: 16000 });
      const result = await provider.synthesize(synthesisRequest({ format: 'pcm' }));
      expect(result.sampleRate).to.equal(16000);
      // "Hello." is about half a second of speech: 16 kHz * 2 bytes * ~0.5 s.
      expect(result.audio.byteLength).to.be.within(8000, 64000);
    } finally {
      replay.done();
    }
  });

  it('refuses a format it does not declare instead of mislabelling bytes', async () => {
    const provider = await createProvider();
    await expectGatewayError(provider.synthesize(synthesisRequest({ format: 'wav' })), 'TTS_ERR_UNSUPPORTED_FORMAT');
  });

  it('declares mp3 and pcm, native speed 0.7..1.2, and no pitch or volume', async () => {
    const provider = await createProvider({ models: ['eleven_multilingual_v2'] });
    const [model] = await provider.models();
    expect(model.capabilities.formats).to.deep.equal(['mp3', 'pcm']);
    expect(model.capabilities.speed).to.deep.equal({ min: 0.7, max: 1.2 });
    expect(model.capabilities.pitch).to.equal(undefined);
    expect(model.capabilities.volume).to.equal(undefined);
  });
});
