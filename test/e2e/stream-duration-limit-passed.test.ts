import { expect } from 'chai';
import request from 'supertest';
import { audioDurationSeconds } from '../../core';
import { faultGatewayForSuite } from './fault-gateway';
import { ScriptedUpstream, step } from './scripted-upstream';

/**
 * `synthesis.maxAudioDuration` holds a provider's Opus (Ogg) and WAV passed through as they came,
 * as it holds MP3 and pcm: their length was not known as they passed, so any length went out.
 */
describe('e2e: maxAudioDuration on an Opus or WAV stream passed through', function () {
  this.timeout(20_000);
  const upstream = ScriptedUpstream.forSuite();
  const subject = faultGatewayForSuite(upstream, { synthesis: { maxAudioDuration: '500ms' } }, { formats: ['mp3', 'opus', 'wav', 'pcm'] });

  for (const format of ['opus', 'wav'] as const) {
    it(`refuses a ${format} answer longer than the limit (413, OpenAI's error shape)`, async () => {
      upstream.script();
      upstream.fallback = step.audio;
      expect(audioDurationSeconds(upstream.audioBytes(format), format)).to.be.greaterThan(0.5);
      const speech = await request(subject.gateway.app)
        .post('/v1/audio/speech')
        .set('Authorization', `Bearer ${subject.apiKey}`)
        .send({ model: 'tts-1', voice: 'alloy', input: 'Hello there.', response_format: format });
      expect(speech.status).to.equal(413);
      expect(speech.body.error.message).to.match(/longer than the limit of 0\.5 s/);
    });
  }
});
