import { expect } from 'chai';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { createProvider } from './harness';

describe('openai plugin: models and voices', () => {
  // openai-node src/resources/audio/speech.ts: SpeechModel = 'tts-1' | 'tts-1-hd' | 'gpt-4o-mini-tts' | 'gpt-4o-mini-tts-2025-12-15'.
  it('lists the four speech models of the official SDK with native speed and 4096 characters', async () => {
    const provider = await createProvider();
    const models = await provider.models();
    expect(models.map((model) => model.name).sort()).to.deep.equal(['gpt-4o-mini-tts', 'gpt-4o-mini-tts-2025-12-15', 'tts-1', 'tts-1-hd']);
    for (const model of models) {
      expect(model.capabilities.formats).to.have.members(['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm']);
      expect(model.capabilities.speed).to.deep.equal({ min: 0.25, max: 4 });
      expect(model.capabilities.pitch).to.equal(undefined);
      expect(model.capabilities.volume).to.equal(undefined);
      expect(model.capabilities.maxInputChars).to.equal(4096);
    }
  });

  it('offers all thirteen voices on gpt-4o-mini-tts (and its dated snapshot) and the classic nine on tts-1 and tts-1-hd', async () => {
    const provider = await createProvider();
    for (const model of ['gpt-4o-mini-tts', 'gpt-4o-mini-tts-2025-12-15']) {
      const all = (await provider.voices(model)).map((voice) => voice.voiceId);
      expect(all).to.have.members(['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'onyx', 'nova', 'sage', 'shimmer', 'verse', 'marin', 'cedar']);
    }
    const snapshot = (await provider.models()).find((model) => model.name === 'gpt-4o-mini-tts-2025-12-15');
    expect(snapshot?.capabilities.instructions).to.equal(true);
    for (const model of ['tts-1', 'tts-1-hd']) {
      const classic = (await provider.voices(model)).map((voice) => voice.voiceId);
      expect(classic).to.have.members(['alloy', 'ash', 'coral', 'echo', 'fable', 'onyx', 'nova', 'sage', 'shimmer']);
    }
  });

  it('maps voices to VoiceDto with an honest language and gender', async () => {
    const provider = await createProvider();
    const alloy = (await provider.voices('tts-1')).find((voice) => voice.voiceId === 'alloy');
    expect(alloy).to.deep.equal({
      voiceId: 'alloy',
      voiceName: 'Alloy',
      language: 'en',
      gender: 'Unknown',
      description: 'OpenAI built-in voice; multilingual, tuned for English',
    });
  });

  it('rejects voices for a model it does not have', async () => {
    const provider = await createProvider();
    await expectGatewayError(provider.voices('whisper-1'), 'TTS_ERR_MODEL_NOT_FOUND');
  });
});
