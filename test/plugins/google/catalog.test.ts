import { expect } from 'chai';
import { replayFixture } from '../../support/nock-fixtures';
import { createProvider, TEST_KEY } from './harness';

describe('google plugin: voices', () => {
  it('lists one family per model from GET /v1/voices, in the VoiceDto shape', async () => {
    const replay = await replayFixture('google', 'voices');
    try {
      const provider = await createProvider();
      const voices = await provider.voices('google-wavenet');
      expect(replay.requests[0].path).to.equal('/v1/voices');
      expect(replay.requests[0].headers['x-goog-api-key']).to.equal(TEST_KEY);
      expect(voices).to.deep.equal([
        { voiceId: 'en-US-Wavenet-D', voiceName: 'Wavenet-D', language: 'en-US', gender: 'Male', description: 'Google WaveNet voice (en-US, 24 kHz)' },
        { voiceId: 'de-DE-Wavenet-B', voiceName: 'Wavenet-B', language: 'de-DE', gender: 'Male', description: 'Google WaveNet voice (de-DE, 24 kHz)' },
      ]);
    } finally {
      replay.done();
    }
  });

  it('tells Chirp 3 HD from Chirp HD and keeps three-letter locales', async () => {
    const replay = await replayFixture('google', 'voices');
    try {
      const voices = await (await createProvider()).voices('google-chirp3-hd');
      expect(voices.map((voice) => voice.voiceId)).to.deep.equal(['en-US-Chirp3-HD-Charon', 'cmn-CN-Chirp3-HD-Kore']);
      expect(voices[1]).to.include({ language: 'cmn-CN', gender: 'Female', voiceName: 'Chirp3-HD-Kore' });
    } finally {
      replay.done();
    }
  });

  it('maps NEUTRAL to Unknown and names the extra languages', async () => {
    const replay = await replayFixture('google', 'voices');
    try {
      const [voice] = await (await createProvider()).voices('google-neural2').then((voices) => voices.filter((entry) => entry.voiceId.startsWith('es-US')));
      expect(voice).to.include({ gender: 'Unknown', language: 'es-US' });
      expect(voice.description).to.contain('also es-MX');
    } finally {
      replay.done();
    }
  });

  it('rejects an unknown model', async () => {
    const error = await (await createProvider()).voices('google-journey').catch((caught: unknown) => caught);
    expect(error).to.have.property('code', 'TTS_ERR_MODEL_NOT_FOUND');
  });
});
