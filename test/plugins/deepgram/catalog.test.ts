import { expect } from 'chai';
import { replayFixture } from '../../support/nock-fixtures';
import type { LoggedWarning } from '../../support/plugin-test-context';
import { createProvider } from './harness';

describe('deepgram plugin: models and voices', () => {
  it('lists the Aura families with their formats and the 2,000-character limit; no native speed, pitch or volume', async () => {
    const provider = await createProvider();
    const models = await provider.models();
    expect(models.map((model) => model.name)).to.deep.equal(['aura-2', 'aura']);
    for (const { capabilities } of models) {
      expect(capabilities.formats).to.have.members(['mp3', 'wav', 'pcm', 'opus', 'flac', 'aac']);
      expect(capabilities.maxInputChars).to.equal(2000);
      expect(capabilities).to.not.have.any.keys('speed', 'pitch', 'volume');
    }
    expect(models[1].description).to.include('legacy');
  });

  it('lists a family voices from GET /v1/models with gender from the tags', async () => {
    const replay = await replayFixture('deepgram', 'voices');
    try {
      const provider = await createProvider();
      const voices = await provider.voices('aura-2');
      expect(voices.map((voice) => voice.voiceId)).to.deep.equal(['aura-2-thalia-en', 'aura-2-draco-en', 'aura-2-estrella-es']);
      expect(voices[0]).to.deep.equal({
        voiceId: 'aura-2-thalia-en',
        voiceName: 'Thalia',
        language: 'en-US',
        gender: 'Female',
        description: 'American accent; clear, confident, energetic, enthusiastic; for Casual chat, Customer service, IVR',
      });
      expect(voices[1]).to.include({ gender: 'Male', language: 'en-GB' });
      expect(voices[2]).to.include({ gender: 'Female', language: 'es-MX' });
      expect(replay.requests[0]).to.include({ method: 'GET', path: '/v1/models' });
      expect(replay.requests[0].headers.authorization).to.equal('Token dg-test-key-0123456789');
    } finally {
      replay.done();
    }
  });

  it('keeps the first-generation voices under aura', async () => {
    const replay = await replayFixture('deepgram', 'voices');
    try {
      const provider = await createProvider();
      const voices = await provider.voices('aura');
      expect(voices.map((voice) => voice.voiceId)).to.deep.equal(['aura-asteria-en', 'aura-angus-en']);
      expect(voices[1]).to.include({ language: 'en-IE', gender: 'Male' });
    } finally {
      replay.done();
    }
  });

  it('serves the bundled voices when the list is refused, and logs it', async () => {
    const replay = await replayFixture('deepgram', 'voices-forbidden');
    try {
      const warnings: LoggedWarning[] = [];
      const provider = await createProvider({}, warnings);
      const voices = await provider.voices('aura');
      expect(voices).to.have.length(12);
      expect(voices.find((voice) => voice.voiceId === 'aura-helios-en')).to.include({ gender: 'Male', language: 'en-GB', voiceName: 'Helios' });
      expect(warnings).to.have.length(1);
      expect(warnings[0].meta).to.include({ error: 'TTS_ERR_UPSTREAM_AUTH' });
    } finally {
      replay.done();
    }
  });

  it('bundles the Aura-2 voices of every language Deepgram\'s SDK lists (German, French, Dutch, Italian, Japanese, more Spanish)', async () => {
    const replay = await replayFixture('deepgram', 'voices-forbidden');
    try {
      const voices = await (await createProvider()).voices('aura-2');
      // deepgram-js-sdk's SpeakV1Model lists 91 aura-2 ids.
      expect(voices).to.have.length(91);
      expect(voices.find((voice) => voice.voiceId === 'aura-2-julius-de')).to.include({ voiceName: 'Julius', language: 'de', gender: 'Unknown' });
      expect(new Set(voices.map((voice) => voice.language.slice(0, 2)))).to.have.keys(['en', 'es', 'de', 'fr', 'nl', 'it', 'ja']);
    } finally {
      replay.done();
    }
  });

  it('rejects an unknown model', async () => {
    const provider = await createProvider();
    const error = await provider.voices('nova-3').catch((caught: unknown) => caught);
    expect(error).to.have.property('code', 'TTS_ERR_MODEL_NOT_FOUND');
  });
});
