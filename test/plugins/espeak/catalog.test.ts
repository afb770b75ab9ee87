import { expect } from 'chai';
import { GatewayError, type TtsProvider, type VoiceInfo } from '../../../core';
import { createProvider } from './harness';

/** Well-formed BCP 47 (language, optional script, region, variants) per RFC 5646's grammar. */
const LANGUAGE_TAG = /^[a-z]{2,3}(-[A-Z][a-z]{3})?(-([A-Z]{2}|\d{3}))?(-([a-z0-9]{5,8}|\d[a-z0-9]{3}))*$/;

describe('espeak plugin: models and voices', function () {
  this.timeout(30_000);
  let provider: TtsProvider;
  let voices: readonly VoiceInfo[];

  before(async () => {
    provider = await createProvider({ workers: 1 });
    voices = await provider.voices('espeak-ng');
  });
  after(() => provider.close?.());

  it('serves one model, espeak-ng, with wav, pcm and mp3 native', async () => {
    const models = await provider.models();
    expect(models.map((model) => model.name)).to.deep.equal(['espeak-ng']);
    expect(models[0].capabilities.formats).to.have.members(['wav', 'pcm', 'mp3']);
  });

  it('lists every language voice of the engine, each once', () => {
    expect(voices.length).to.be.greaterThan(100);
    expect(new Set(voices.map((voice) => voice.voiceId)).size).to.equal(voices.length);
  });

  it('gives each voice a canonical BCP 47 language tag and a gender', () => {
    for (const voice of voices) {
      expect(voice.language, voice.voiceId).to.match(LANGUAGE_TAG);
      expect(Intl.getCanonicalLocales(voice.language)[0], voice.voiceId).to.equal(voice.language);
      expect(['Male', 'Female', 'Unknown']).to.include(voice.gender);
      expect(voice.voiceName, voice.voiceId).to.have.length.greaterThan(0);
      expect(voice.description, voice.voiceId).to.have.length.greaterThan(0);
    }
  });

  it('names voices as the espeak-ng CLI does and tags their languages', () => {
    const byId = new Map(voices.map((voice) => [voice.voiceId, voice]));
    expect(byId.get('en-us')).to.include({ language: 'en-US', voiceName: 'English (America)', gender: 'Male' });
    expect(byId.get('en-gb')?.language).to.equal('en-GB');
    expect(byId.get('pt-br')?.language).to.equal('pt-BR');
    expect(byId.get('cmn')?.language).to.equal('zh');
    expect(byId.get('yue')?.language).to.equal('yue');
    expect(byId.get('yue-latn-jyutping')?.language).to.equal('yue-Latn-jyutping');
  });

  it('answers the same list again without asking the workers (it is fixed)', async () => {
    expect(await provider.voices('espeak-ng')).to.equal(voices);
  });

  it('knows no other model', async () => {
    const error = await provider.voices('espeak').catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(GatewayError).with.property('code', 'TTS_ERR_MODEL_NOT_FOUND');
  });
});
