import { expect } from 'chai';
import { replayFixture } from '../../support/nock-fixtures';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { createProvider, TEST_KEY } from './harness';

describe('azure plugin: models and voices', () => {
  it('declares azure-tts with its native formats, ranges and input limit', async () => {
    const provider = await createProvider();
    const [model] = await provider.models();
    expect(model.name).to.equal('azure-tts');
    expect(model.capabilities.formats).to.have.members(['mp3', 'wav', 'pcm', 'opus']);
    expect(model.capabilities.speed).to.deep.equal({ min: 0.5, max: 2 });
    expect(model.capabilities.pitch).to.deep.equal({ min: 0.5, max: 1.5 });
    expect(model.capabilities.volume).to.equal(undefined);
    expect(model.capabilities.maxInputChars).to.equal(1500);
  });

  it('maps the region voice list to VoiceDto entries', async () => {
    const replay = await replayFixture('azure', 'voices');
    try {
      const provider = await createProvider();
      const voices = await provider.voices('azure-tts');
      expect(replay.requests[0].path).to.equal('/cognitiveservices/voices/list');
      expect(replay.requests[0].headers['ocp-apim-subscription-key']).to.equal(TEST_KEY);
      expect(voices).to.have.length(4);
      expect(voices[0]).to.deep.equal({
        voiceId: 'en-US-JennyNeural',
        voiceName: 'Jenny',
        language: 'en-US',
        gender: 'Female',
        description:
          'English (United States); Neural; styles: assistant, chat, customerservice, newscast, angry, cheerful, sad, excited, friendly, terrified, shouting, unfriendly, whispering, hopeful',
      });
      expect(voices[2]).to.include({ voiceId: 'zh-CN-YunxiNeural', gender: 'Male', language: 'zh-CN' });
      expect(voices[2].description).to.include('local name 云希');
      expect(voices[3]).to.include({ voiceId: 'zh-CN-liaoning-XiaobeiNeural', language: 'zh-CN-liaoning' });
      expect(voices[3].description).to.match(/Preview$/);
    } finally {
      replay.done();
    }
  });

  it('answers TTS_ERR_UPSTREAM_BAD_RESPONSE when the voice list is not JSON', async () => {
    const replay = await replayFixture('azure', 'voices-malformed');
    try {
      const provider = await createProvider();
      await expectGatewayError(provider.voices('azure-tts'), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
    } finally {
      replay.done();
    }
  });

  it('refuses a model it does not serve', async () => {
    const provider = await createProvider();
    await expectGatewayError(provider.voices('tts-1'), 'TTS_ERR_MODEL_NOT_FOUND');
  });

  it('uses baseUrl instead of the regional endpoint when given', async () => {
    const seen: string[] = [];
    const standIn = (async (input: string | URL | Request) => {
      seen.push(String(input));
      return new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    const provider = await createProvider({ region: undefined, baseUrl: 'https://speech.example.test/' }, standIn);
    expect(await provider.voices('azure-tts')).to.deep.equal([]);
    expect(seen).to.deep.equal(['https://speech.example.test/cognitiveservices/voices/list']);
  });
});
