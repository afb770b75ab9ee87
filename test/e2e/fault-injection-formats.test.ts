import { expect } from 'chai';
import { decodeAudio, sniffAudioFormat } from '../../core';
import { readWavInfo } from '../../core/audio/decode/wav-decoder';
import { faultGatewayForSuite } from './fault-gateway';
import { ScriptedUpstream, step, WAV_STEP_RATE } from './scripted-upstream';

/**
 * Answers of another audio format than the one asked (a WAV, an mp3 for pcm), from a real HTTP
 * stand-in behind the `openai-compatible` plugin: decoded as what they are, and said so in
 * X-TTS-Applied.
 */
describe('e2e: fault injection through openai-compatible', function () {
  this.timeout(60_000);
  const upstream = ScriptedUpstream.forSuite();

  describe('answers in another audio format than asked (provider timeout 300 ms, deadline 5 s, 2 retries)', () => {
    const subject = faultGatewayForSuite(upstream, { synthesis: { timeout: '5s' }, resilience: { retries: 2, backoff: '1ms', maxBackoff: '5ms', breaker: { failures: 100 } } }, { timeoutMs: 300 });

    it('a WAV answered for pcm is stored as its samples, at the WAV’s sample rate', async () => {
      upstream.script(step.wav);
      const response = await subject.synthesize({ format: 'pcm' });
      expect(response.status).to.equal(200);
      const file = await subject.download(response.body.data.audio_url);
      const info = readWavInfo(upstream.wavBytes);
      const samples = upstream.wavBytes.subarray(info.dataOffset, info.dataOffset + info.dataBytes);
      expect(Number(/rate=(\d+)/.exec(String(file.headers['content-type']))?.[1])).to.equal(WAV_STEP_RATE);
      expect(Buffer.compare(file.body as Buffer, Buffer.from(samples))).to.equal(0);
      expect(response.body.data.file_size).to.equal(samples.byteLength);
      // The samples went out as they came (native), and the header says they came in a WAV.
      expect(response.headers['x-tts-applied']).to.equal('speed=default; pitch=default; volume=default; format=native; chunks=1; received=wav');
    });

    it('mp3 asked, a WAV answered: decoded as the WAV it is, encoded to mp3, and X-TTS-Applied says so', async () => {
      upstream.script(step.wav);
      const response = await subject.synthesize({ format: 'mp3' });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(upstream.speechAttempts).to.equal(1);
      expect(response.headers['x-tts-applied']).to.equal('speed=default; pitch=default; volume=default; format=transcoded; chunks=1; received=wav');
      const file = await subject.download(response.body.data.audio_url);
      expect(sniffAudioFormat(new Uint8Array(file.body as Buffer))).to.equal('mp3');
      const stored = await decodeAudio(new Uint8Array(file.body as Buffer), 'mp3');
      // A quarter of a second of tone, give or take the encoder's padding.
      expect(stored.samples.length / stored.sampleRate).to.be.within(0.2, 0.35);
    });

    it('pcm asked, an mp3 answered: decoded to its samples, and X-TTS-Applied says so', async () => {
      upstream.script(step.other('mp3'));
      const response = await subject.synthesize({ format: 'pcm' });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(upstream.speechAttempts).to.equal(1);
      expect(response.headers['x-tts-applied']).to.equal('speed=default; pitch=default; volume=default; format=transcoded; chunks=1; received=mp3');
      const file = await subject.download(response.body.data.audio_url);
      const decoded = await decodeAudio(upstream.audioBytes('mp3'), 'mp3');
      const rate = Number(/rate=(\d+)/.exec(String(file.headers['content-type']))?.[1]);
      const stored = (file.body as Buffer).byteLength;
      // The stored bytes are the mp3's samples (16-bit mono), not the mp3 file itself.
      expect(sniffAudioFormat(new Uint8Array(file.body as Buffer))).to.equal(undefined);
      expect(stored / 2 / rate).to.be.closeTo(decoded.samples.length / decoded.sampleRate, 0.01);
    });

    it('tts-stream: mp3 asked, a WAV answered: the stream is the WAV encoded to mp3, and X-TTS-Applied says so', async () => {
      upstream.script(step.wav);
      const response = await subject.stream();
      expect(response.status).to.equal(200);
      expect(upstream.speechAttempts).to.equal(1);
      expect(response.headers['x-tts-applied']).to.equal('speed=default; pitch=default; volume=default; format=transcoded; chunks=1; received=wav');
      expect(sniffAudioFormat(new Uint8Array(response.body as Buffer))).to.equal('mp3');
    });

    it('tts-stream: pcm asked, a WAV answered: the stream is its samples, without the header', async () => {
      upstream.script(step.wav);
      const response = await subject.stream('pcm');
      expect(response.status).to.equal(200);
      expect(response.headers['x-tts-applied']).to.equal('speed=default; pitch=default; volume=default; format=transcoded; chunks=1; received=wav');
      expect(Number(/rate=(\d+)/.exec(String(response.headers['content-type']))?.[1])).to.equal(WAV_STEP_RATE);
      const body = response.body as Buffer;
      const info = readWavInfo(upstream.wavBytes);
      expect(sniffAudioFormat(new Uint8Array(body))).to.equal(undefined);
      expect(body.byteLength).to.equal(info.dataBytes);
    });
  });
});
