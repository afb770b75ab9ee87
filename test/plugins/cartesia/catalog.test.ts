import { expect } from 'chai';
import { replayFixture } from '../../support/nock-fixtures';
import { createProvider, VOICE } from './harness';

describe('cartesia plugin: models and voices', () => {
  it('declares native speed 0.6..1.5 on sonic-3 only, and no volume or pitch anywhere', async () => {
    const models = await (await createProvider()).models();
    const byName = new Map(models.map((model) => [model.name, model.capabilities]));
    expect(byName.get('sonic-3')?.speed).to.deep.equal({ min: 0.6, max: 1.5 });
    expect(byName.get('sonic-2')?.speed).to.equal(undefined);
    for (const capabilities of byName.values()) {
      expect(capabilities.formats).to.deep.equal(['mp3', 'wav', 'pcm']);
      expect(capabilities.volume).to.equal(undefined);
      expect(capabilities.pitch).to.equal(undefined);
    }
  });

  it('follows the starting_after cursor, stops at has_more: false without asking for an empty page, and maps VoiceDto (language: the native locale)', async () => {
    const replay = await replayFixture('cartesia', 'voices-paged');
    try {
      const voices = await (await createProvider()).voices('sonic-3');
      expect(voices.map((voice) => voice.voiceId)).to.have.length(4);
      expect(voices[0]).to.deep.equal({
        voiceId: VOICE,
        voiceName: 'Barbershop Man',
        language: 'en-US',
        gender: 'Male',
        description: 'This voice is smooth and relaxed, perfect for casual conversations.',
      });
      expect(voices[2]).to.include({ voiceName: 'Hannah', language: 'de-DE', gender: 'Female' });
      // No locales listed: the bare language.
      expect(voices[3]).to.include({ voiceName: 'My Clone', language: 'en', gender: 'Unknown', description: 'Cartesia voice' });
      expect(replay.requests.map((request) => request.path)).to.deep.equal([
        '/voices?limit=100',
        '/voices?limit=100&starting_after=694f9389-aac1-45b6-b726-9d9369183238',
      ]);
      expect(replay.requests[1].headers['cartesia-version']).to.equal('2026-03-01');
      expect(replay.requests[1].headers.authorization).to.equal('Bearer sk_car_test0123456789');
    } finally {
      replay.done();
    }
  });

  it('keeps paging while pages come without has_more (the SDKs\' rule) and stops at the empty page', async () => {
    const replay = await replayFixture('cartesia', 'voices-paged-until-empty');
    try {
      const voices = await (await createProvider()).voices('sonic-3');
      expect(voices.map((voice) => voice.voiceName)).to.deep.equal(['Barbershop Man', 'Sarah', 'Hannah', 'My Clone']);
      expect(replay.requests.map((request) => request.path)).to.deep.equal([
        '/voices?limit=100',
        '/voices?limit=100&starting_after=694f9389-aac1-45b6-b726-9d9369183238',
        '/voices?limit=100&starting_after=f9a4b3c2-1d0e-4f5a-9b8c-7d6e5f4a3b21',
      ]);
    } finally {
      replay.done();
    }
  });

  it('ends the listing when the server repeats a page (has_more still true) instead of asking for it again and again', async () => {
    const replay = await replayFixture('cartesia', 'voices-repeated-page');
    try {
      const voices = await (await createProvider()).voices('sonic-3');
      expect(voices.map((voice) => voice.voiceName)).to.deep.equal(['Barbershop Man', 'Sarah']);
      expect(replay.requests).to.have.length(2);
    } finally {
      replay.done();
    }
  });

  it('rejects a voice page without a data list', async () => {
    const replay = await replayFixture('cartesia', 'voices-malformed');
    try {
      const error = await (await createProvider()).voices('sonic-2').catch((caught: unknown) => caught);
      expect(error).to.have.property('code', 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
    } finally {
      replay.done();
    }
  });

  it('rejects an unknown model', async () => {
    const error = await (await createProvider()).voices('sonic-9').catch((caught: unknown) => caught);
    expect(error).to.have.property('code', 'TTS_ERR_MODEL_NOT_FOUND');
  });
});
