import { expect } from 'chai';
import request from 'supertest';
import { faultGatewayForSuite } from './fault-gateway';
import { ScriptedUpstream, step } from './scripted-upstream';

/**
 * The seconds of audio a stream counts in the usage report. A provider's raw pcm passed through
 * as it came (the provider streams natively and nothing is to be done) counted none: its length
 * was checked against maxAudioDuration as it passed but never kept, so every such stream added
 * 0 s to the account's audioSeconds, while the same audio as a file counted its length.
 */
describe('e2e: the audio seconds of a stream passed through', function () {
  this.timeout(20_000);
  const upstream = ScriptedUpstream.forSuite();
  const subject = faultGatewayForSuite(upstream, {});

  it('counts a pcm stream by its samples, on /v1/audio/speech and tts-stream alike', async () => {
    upstream.script();
    upstream.fallback = step.audio;
    const pcmSeconds = upstream.audioBytes('pcm').byteLength / 2 / 24_000;
    const speech = await request(subject.gateway.app)
      .post('/v1/audio/speech')
      .set('Authorization', `Bearer ${subject.apiKey}`)
      .send({ model: 'tts-1', voice: 'alloy', input: 'Hello there.', response_format: 'pcm' })
      .buffer(true)
      .parse((response, done) => {
        const parts: Buffer[] = [];
        response.on('data', (part: Buffer) => parts.push(part));
        response.on('end', () => done(null, Buffer.concat(parts)));
      });
    expect(speech.status).to.equal(200);
    expect(speech.headers['x-tts-applied']).to.include('format=native');
    expect((await subject.stream('pcm')).status).to.equal(200);
    const usage = await request(subject.gateway.app).get('/api/v1/usage').set('X-API-Key', subject.apiKey).expect(200);
    expect(usage.body.data.totals.requests).to.equal(2);
    expect(usage.body.data.totals.audioSeconds).to.be.closeTo(2 * pcmSeconds, 0.001);
  });
});
