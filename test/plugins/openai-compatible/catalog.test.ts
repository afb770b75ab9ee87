import { expect } from 'chai';
import { replayFixture } from '../../support/nock-fixtures';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { createProvider, LOCALAI_URL, TEST_KEY } from './harness';

async function withFixture<T>(scenario: string, run: (requests: { path: string; headers: Record<string, string> }[]) => Promise<T>): Promise<T> {
  const replay = await replayFixture('openai-compatible', scenario);
  try {
    return await run(replay.requests as { path: string; headers: Record<string, string> }[]);
  } finally {
    replay.done();
  }
}

describe('openai-compatible plugin: models', () => {
  it('lists the server\'s speech models with OpenAI-like capabilities and no credentials when none are set', async () => {
    await withFixture('kokoro-models', async (requests) => {
      const models = await (await createProvider()).models();
      expect(models.map((model) => model.name)).to.deep.equal(['tts-1', 'tts-1-hd', 'kokoro']);
      expect(models[0].capabilities).to.deep.equal({ formats: ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'], speed: { min: 0.25, max: 4 }, maxInputChars: 4096, pcmSampleRate: 24000 });
      expect(requests[0].path).to.equal('/v1/models');
      expect(requests[0].headers).to.not.have.property('authorization');
    });
  });

  it('prefixes names so they do not clash with the openai plugin, and keeps them URL-path safe', async () => {
    await withFixture('localai-models', async (requests) => {
      const provider = await createProvider({ baseUrl: `${LOCALAI_URL}/v1`, apiKey: TEST_KEY, modelPrefix: 'local' }, 'localai');
      const models = await provider.models();
      // Chat and transcription models are left out by modelPattern.
      expect(models.map((model) => model.name)).to.deep.equal(['local-tts-1', 'local-piper-en_US-amy-low']);
      expect(requests[0].headers.authorization).to.equal(`Bearer ${TEST_KEY}`);
    });
  });

  it('falls back to tts-1 and tts-1-hd when the server has no model list', async () => {
    await withFixture('models-missing', async () => {
      const models = await (await createProvider({ modelPrefix: 'speech' })).models();
      expect(models.map((model) => model.name)).to.deep.equal(['speech-tts-1', 'speech-tts-1-hd']);
    });
  });

  it('serves configured models without asking, and leaves speed to the gateway when told to', async () => {
    const provider = await createProvider({ models: ['tts-1'], nativeSpeed: false, formats: ['mp3', 'wav'], maxInputChars: 1000 });
    const [model] = await provider.models();
    expect(model.name).to.equal('tts-1');
    expect(model.capabilities).to.deep.equal({ formats: ['mp3', 'wav'], maxInputChars: 1000, pcmSampleRate: 24000 });
  });

  it('stops at start on a modelPattern that is not a regular expression', async () => {
    let failure: unknown;
    try {
      await createProvider({ modelPattern: '(tts' });
    } catch (error) {
      failure = error;
    }
    expect(String(failure)).to.include('modelPattern');
  });
});

describe('openai-compatible plugin: voices', () => {
  it('reads Kokoro\'s string voice list and derives language and gender from the names', async () => {
    await withFixture('kokoro-voices-strings', async (requests) => {
      const voices = await (await createProvider()).voices('kokoro');
      expect(requests[0].path).to.equal('/v1/audio/voices');
      expect(voices.map((voice) => [voice.voiceId, voice.voiceName, voice.language, voice.gender])).to.deep.equal([
        ['af_bella', 'Bella', 'en-US', 'Female'],
        ['af_sky', 'Sky', 'en-US', 'Female'],
        ['bm_george', 'George', 'en-GB', 'Male'],
        ['jf_alpha', 'Alpha', 'ja-JP', 'Female'],
        ['zm_yunxi', 'Yunxi', 'zh-CN', 'Male'],
      ]);
      expect(voices[0].description).to.equal('Kokoro voice, American English, female');
    });
  });

  it('reads the newer object voice list and drops duplicates', async () => {
    await withFixture('kokoro-voices-objects', async () => {
      const voices = await (await createProvider()).voices('kokoro');
      expect(voices.map((voice) => [voice.voiceId, voice.voiceName, voice.language])).to.deep.equal([
        ['af_heart', 'Heart', 'en-US'],
        ['ef_dora', 'Dora', 'es'],
      ]);
    });
  });

  it('falls back to OpenAI\'s voice names when the server has no voice list', async () => {
    await withFixture('voices-missing', async () => {
      const voices = await (await createProvider()).voices('tts-1');
      expect(voices.map((voice) => voice.voiceId)).to.deep.equal(['alloy', 'echo', 'fable', 'onyx', 'nova', 'shimmer']);
      expect(voices[0]).to.include({ voiceName: 'Alloy', language: 'en', gender: 'Unknown' });
    });
  });

  it('uses configured voices without asking the server', async () => {
    const provider = await createProvider({
      voices: ['amy', { id: 'thorsten', name: 'Thorsten', language: 'de-DE', gender: 'Male', description: 'Piper German voice' }],
      voiceLanguage: 'en-US',
    });
    expect(await provider.voices('tts-1')).to.deep.equal([
      { voiceId: 'amy', voiceName: 'amy', language: 'en-US', gender: 'Unknown', description: '' },
      { voiceId: 'thorsten', voiceName: 'Thorsten', language: 'de-DE', gender: 'Male', description: 'Piper German voice' },
    ]);
  });

  it('rejects a voice list of an unknown shape', async () => {
    await withFixture('voices-wrong-shape', async () => {
      await expectGatewayError((await createProvider()).voices('kokoro'), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
    });
  });
});
