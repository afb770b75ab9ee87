import { expect } from 'chai';
import { replayFixture } from '../../support/nock-fixtures';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { type LoggedWarning } from '../../support/plugin-test-context';
import { toModelInfo } from '../../../plugins/elevenlabs/models';
import { createProvider, RACHEL, TEST_KEY } from './harness';

describe('elevenlabs plugin: models', () => {
  it('lists only text-to-speech models, each chunk capped at 2,000 characters (about two minutes of speech)', async () => {
    const replay = await replayFixture('elevenlabs', 'models');
    try {
      const provider = await createProvider();
      const models = await provider.models();
      const limits = Object.fromEntries(models.map((model) => [model.name, model.capabilities.maxInputChars]));
      expect(limits).to.deep.equal({ eleven_multilingual_v2: 2000, eleven_v3: 2000, eleven_flash_v2_5: 2000, eleven_turbo_v2_5: 2000 });
      expect(models[0].description).to.equal('ElevenLabs Eleven Multilingual v2');
      expect(replay.requests[0].headers['xi-api-key']).to.equal(TEST_KEY);
    } finally {
      replay.done();
    }
  });

  it('serves the bundled model list when ElevenLabs is unavailable, and says so in the log', async () => {
    const replay = await replayFixture('elevenlabs', 'models-unavailable');
    const warnings: LoggedWarning[] = [];
    try {
      const provider = await createProvider({}, warnings);
      const names = (await provider.models()).map((model) => model.name);
      expect(names).to.include.members(['eleven_multilingual_v2', 'eleven_v3', 'eleven_flash_v2_5']);
      expect(warnings).to.have.length(1);
      expect(warnings[0].message).to.include('bundled');
    } finally {
      replay.done();
    }
  });

  it('raises a credentials problem on the model list instead of hiding it', async () => {
    const replay = await replayFixture('elevenlabs', 'models-unauthorized');
    try {
      const provider = await createProvider();
      await expectGatewayError(provider.models(), 'TTS_ERR_UPSTREAM_AUTH');
    } finally {
      replay.done();
    }
  });

  it('serves configured model ids without calling ElevenLabs', async () => {
    const provider = await createProvider({ models: ['eleven_v3', 'eleven_some_future_model'] });
    const models = await provider.models();
    expect(models.map((model) => [model.name, model.capabilities.maxInputChars])).to.deep.equal([
      ['eleven_v3', 2000],
      ['eleven_some_future_model', 2000],
    ]);
  });

  it("keeps a model's own limit when it is below the chunk cap", () => {
    expect(toModelInfo('eleven_small', { maximum_text_length_per_request: 1200 }).capabilities.maxInputChars).to.equal(1200);
    expect(toModelInfo('eleven_flash_v2_5', { maximum_text_length_per_request: 40000 }).capabilities.maxInputChars).to.equal(2000);
  });
});

describe('elevenlabs plugin: voices', () => {
  it('follows next_page_token while has_more and maps labels to VoiceDto', async () => {
    const replay = await replayFixture('elevenlabs', 'voices-paged');
    try {
      const provider = await createProvider({ voicePageSize: 2 });
      const voices = await provider.voices('eleven_multilingual_v2');
      expect(replay.requests.map((request) => request.path)).to.deep.equal(['/v2/voices?page_size=2', '/v2/voices?page_size=2&next_page_token=eyJvZmZzZXQiOjJ9']);
      expect(replay.requests[1].headers['xi-api-key']).to.equal(TEST_KEY);
      expect(voices).to.deep.equal([
        { voiceId: RACHEL, voiceName: 'Rachel', language: 'en-US', gender: 'Female', description: 'calm, young, american, narration (premade)' },
        { voiceId: 'JBFqnCBsd6RMkjVDRZzb', voiceName: 'George', language: 'en-GB', gender: 'Male', description: 'warm, middle aged, british, narration (premade)' },
        { voiceId: 'pNInz6obpgDQGcFmaJgB', voiceName: 'Lucía', language: 'es-MX', gender: 'Unknown', description: 'Voz cálida para audiolibros.' },
      ]);
    } finally {
      replay.done();
    }
  });

  it('rejects a voice list that is not JSON', async () => {
    const replay = await replayFixture('elevenlabs', 'voices-malformed');
    try {
      const provider = await createProvider();
      await expectGatewayError(provider.voices('eleven_v3'), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
    } finally {
      replay.done();
    }
  });

  it('rejects a voice list without a voices array', async () => {
    const replay = await replayFixture('elevenlabs', 'voices-wrong-shape');
    try {
      const provider = await createProvider();
      const error = await expectGatewayError(provider.voices('eleven_v3'), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
      expect(error.status).to.equal(502);
    } finally {
      replay.done();
    }
  });
});
