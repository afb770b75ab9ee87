import { expect } from 'chai';
import { GatewayError } from '../../../core';
import { replayFixture } from '../../support/nock-fixtures';
import type { LoggedWarning } from '../../support/plugin-test-context';
import { createProvider } from './harness';

describe('minimax plugin: models and voices', () => {
  it('lists the fixed models with their native ranges and input limit', async () => {
    const provider = await createProvider();
    const models = await provider.models();
    const names = models.map((model) => model.name);
    expect(names).to.include.members(['speech-2.8-hd', 'speech-2.6-turbo', 'speech-2.5-hd-preview', 'speech-02-hd', 'speech-02-turbo']);
    const capabilities = models[0].capabilities;
    expect(capabilities.formats).to.have.members(['mp3', 'wav', 'flac', 'pcm']);
    expect(capabilities.speed).to.deep.equal({ min: 0.5, max: 2 });
    expect(capabilities.pitch).to.deep.equal({ min: 0.5, max: 2 });
    expect(capabilities.volume).to.equal(undefined);
    // MiniMax takes up to 9,999 characters a call; the plugin caps a chunk at a few minutes of Mandarin.
    expect(capabilities.maxInputChars).to.equal(1000);
  });

  it('maps get_voice to VoiceDto with language and gender only where MiniMax states them', async () => {
    const replay = await replayFixture('minimax', 'voices');
    try {
      const provider = await createProvider();
      const voices = await provider.voices('speech-02-hd');
      const byId = new Map(voices.map((voice) => [voice.voiceId, voice]));
      expect(byId.get('English_Graceful_Lady')).to.deep.equal({
        voiceId: 'English_Graceful_Lady',
        voiceName: 'Graceful Lady',
        language: 'en',
        gender: 'Female',
        description: 'MiniMax system voice: A mature British female voice, elegant and refined.',
      });
      expect(byId.get('English_Persuasive_Man')).to.include({ gender: 'Male', language: 'en' });
      expect(byId.get('Chinese (Mandarin)_Reliable_Executive')).to.include({ language: 'zh-CN', gender: 'Unknown', voiceName: '沉稳高管' });
      expect(byId.get('Japanese_IntellectualSenior')).to.include({ language: 'ja', gender: 'Unknown', description: 'MiniMax system voice' });
      expect(byId.get('male-qn-qingse')).to.include({ language: 'zh-CN', gender: 'Male' });
      expect(byId.get('female-shaonv')).to.include({ language: 'zh-CN', gender: 'Female' });
      expect(byId.get('Santa_Claus')).to.include({ language: 'und', gender: 'Unknown' });
      expect(byId.get('my-narrator-01')).to.include({ voiceName: 'my-narrator-01', description: 'Cloned voice (this account): Cloned from an uploaded sample' });
      expect(voices).to.have.length(8);
      const sent = replay.requests[0];
      expect(sent.path).to.equal('/v1/get_voice');
      expect(sent.headers.authorization).to.equal('Bearer mm-test-key-0123456789');
      expect(JSON.parse(sent.body)).to.deep.equal({ voice_type: 'all' });
    } finally {
      replay.done();
    }
  });

  it('falls back to the bundled system voices when get_voice fails, and logs why', async () => {
    const replay = await replayFixture('minimax', 'voices-server-error');
    try {
      const warnings: LoggedWarning[] = [];
      const provider = await createProvider({}, warnings);
      const voices = await provider.voices('speech-2.8-turbo');
      expect(voices.map((voice) => voice.voiceId)).to.include.members(['English_Graceful_Lady', 'male-qn-qingse', 'audiobook_female_1']);
      expect(voices.find((voice) => voice.voiceId === 'presenter_female')).to.include({ gender: 'Female', language: 'zh-CN' });
      expect(warnings).to.have.length(1);
      expect(warnings[0].meta).to.include({ error: 'TTS_ERR_UPSTREAM' });
    } finally {
      replay.done();
    }
  });

  it('rejects an unknown model', async () => {
    const provider = await createProvider();
    const error = await provider.voices('speech-99').catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(GatewayError);
    expect((error as GatewayError).code).to.equal('TTS_ERR_MODEL_NOT_FOUND');
  });
});
