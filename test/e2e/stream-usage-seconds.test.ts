import { expect } from 'chai';
import request from 'supertest';
import { audioDurationSeconds } from '../../core';
import { faultGatewayForSuite } from './fault-gateway';
import { ScriptedUpstream, step } from './scripted-upstream';

/**
 * The seconds of audio a stream counts in the usage report. A provider's raw pcm passed through
 * as it came (the provider streams natively and nothing is to be done) counted none: its length
 * was checked against maxAudioDuration as it passed but never kept, so every such stream added
 * 0 s to the account's audioSeconds, while the same audio as a file counted its length. MP3
 * passed through counted none either (nor was it held to maxAudioDuration): its frames say it.
 * Ogg Opus and WAV counted none: their pages and header say it.
 */
describe('e2e: the audio seconds of a stream passed through', function () {
  this.timeout(20_000);
  const upstream = ScriptedUpstream.forSuite();
  const subject = faultGatewayForSuite(upstream, {}, { formats: ['mp3', 'opus', 'wav', 'pcm'] });

  const readAll = (response: request.Response, done: (error: Error | null, body: Buffer) => void): void => {
    const parts: Buffer[] = [];
    response.on('data', (part: Buffer) => parts.push(part));
    response.on('end', () => done(null, Buffer.concat(parts)));
  };

  it('counts an MP3 stream by its frames, as its file would count', async () => {
    upstream.script();
    upstream.fallback = step.audio;
    const fileSeconds = audioDurationSeconds(upstream.audioBytes('mp3'), 'mp3')!;
    const before = (await request(subject.gateway.app).get('/api/v1/usage').set('X-API-Key', subject.apiKey).expect(200)).body.data.totals.audioSeconds as number;
    const speech = await request(subject.gateway.app).post('/v1/audio/speech').set('Authorization', `Bearer ${subject.apiKey}`).send({ model: 'tts-1', voice: 'alloy', input: 'Hello there.' }).buffer(true).parse(readAll);
    expect(speech.status).to.equal(200);
    expect(speech.headers['x-tts-applied']).to.include('format=native');
    const usage = await request(subject.gateway.app).get('/api/v1/usage').set('X-API-Key', subject.apiKey).expect(200);
    expect(fileSeconds).to.be.greaterThan(0.5);
    expect(usage.body.data.totals.audioSeconds - before).to.be.closeTo(fileSeconds, 0.001);
  });

  // Opus and WAV counted none (0 s) as they passed, whatever their length.
  for (const format of ['opus', 'wav'] as const) {
    it(`counts a ${format} stream passed through by its ${format === 'opus' ? "pages' granule positions" : "header's byte rate"}, as its file would count`, async () => {
      upstream.script();
      upstream.fallback = step.audio;
      const fileSeconds = audioDurationSeconds(upstream.audioBytes(format), format)!;
      const before = (await request(subject.gateway.app).get('/api/v1/usage').set('X-API-Key', subject.apiKey).expect(200)).body.data.totals.audioSeconds as number;
      const speech = await request(subject.gateway.app)
        .post('/v1/audio/speech')
        .set('Authorization', `Bearer ${subject.apiKey}`)
        .send({ model: 'tts-1', voice: 'alloy', input: 'Hello there.', response_format: format })
        .buffer(true)
        .parse(readAll);
      expect(speech.status).to.equal(200);
      expect(speech.headers['x-tts-applied']).to.include('format=native');
      const usage = await request(subject.gateway.app).get('/api/v1/usage').set('X-API-Key', subject.apiKey).expect(200);
      expect(fileSeconds).to.be.greaterThan(0.5);
      expect(usage.body.data.totals.audioSeconds - before).to.be.closeTo(fileSeconds, 0.001);
    });
  }

  it('counts a pcm stream by its samples, on /v1/audio/speech and tts-stream alike', async () => {
    upstream.script();
    upstream.fallback = step.audio;
    const pcmSeconds = upstream.audioBytes('pcm').byteLength / 2 / 24_000;
    const before = (await request(subject.gateway.app).get('/api/v1/usage').set('X-API-Key', subject.apiKey).expect(200)).body.data.totals as { requests: number; audioSeconds: number };
    const speech = await request(subject.gateway.app)
      .post('/v1/audio/speech')
      .set('Authorization', `Bearer ${subject.apiKey}`)
      .send({ model: 'tts-1', voice: 'alloy', input: 'Hello there.', response_format: 'pcm' })
      .buffer(true)
      .parse(readAll);
    expect(speech.status).to.equal(200);
    expect(speech.headers['x-tts-applied']).to.include('format=native');
    expect((await subject.stream('pcm')).status).to.equal(200);
    const usage = await request(subject.gateway.app).get('/api/v1/usage').set('X-API-Key', subject.apiKey).expect(200);
    expect(usage.body.data.totals.requests - before.requests).to.equal(2);
    expect(usage.body.data.totals.audioSeconds - before.audioSeconds).to.be.closeTo(2 * pcmSeconds, 0.001);
  });
});
