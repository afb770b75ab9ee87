import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { probeFfmpeg } from '../../../core/audio/ffmpeg/ffmpeg-probe';
import { AudioProcessor, type AudioJob } from '../../../core/audio/audio-processor';
import { resample } from '../../../core/audio/dsp/resample';
import { encodeRawPcm } from '../../../core/audio/encode/wav-encoder';
import { GatewayError } from '../../../core/errors';
import { sniffAudioFormat } from '../../../core/audio/sniff-audio-format';
import { decodeForTest, durationSeconds, medianF0, peak, rms, speechDurationSeconds } from '../../support/audio-analysis';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { speechMp3Bytes, speechPcm, speechWavBytes } from './speech-fixture';

describe('AudioProcessor (through its worker pool)', () => {
  let processor: AudioProcessor;
  const speech = speechPcm();
  const wav = { audio: speechWavBytes(), format: 'wav' as const };
  const neutral = { speed: 1, pitch: 1, volume: 1 };

  before(async () => {
    processor = new AudioProcessor({ workers: 2 });
    await processor.warmUp();
  });

  after(() => processor.close());

  const expectCode = (job: AudioJob, code: string) => expectGatewayError(processor.process(job), code);

  it('halves the speech duration at speed 2 without changing pitch, and reports the duration', async () => {
    const result = await processor.process({ inputs: [wav], ...neutral, speed: 2, output: 'wav' });
    const decoded = await decodeForTest(result.audio, 'wav');
    expect(result.format).to.equal('wav');
    expect(result.sampleRate).to.equal(22050);
    expect(result.durationSeconds).to.be.closeTo(durationSeconds(decoded), 0.001);
    expect(speechDurationSeconds(decoded) / speechDurationSeconds(speech)).to.be.closeTo(0.5, 0.05);
    expect(medianF0(decoded) / medianF0(speech)).to.be.closeTo(1, 0.1);
  });

  it('moves the buffers of inputs marked transferable to the worker (one buffer under two inputs once) and copies the others', async () => {
    const bytes = encodeRawPcm(speech);
    const shared = bytes.slice();
    const given = [
      { audio: shared.subarray(0, bytes.length / 2), format: 'pcm' as const, sampleRate: 22050, transferable: true },
      { audio: shared.subarray(bytes.length / 2), format: 'pcm' as const, sampleRate: 22050, transferable: true },
    ];
    const kept = { audio: bytes.slice(), format: 'pcm' as const, sampleRate: 22050 };
    const moved = await processor.process({ inputs: given, ...neutral, output: 'pcm' });
    const copied = await processor.process({ inputs: [kept], ...neutral, output: 'pcm' });
    expect(given.map((input) => input.audio.byteLength)).to.deep.equal([0, 0]);
    expect(kept.audio.byteLength).to.equal(bytes.byteLength);
    expect(moved.durationSeconds).to.be.closeTo(copied.durationSeconds, 0.02);
  });

  it('combines speed, pitch and volume from MP3 input into Ogg Opus output', async () => {
    const result = await processor.process({ inputs: [{ audio: speechMp3Bytes(), format: 'mp3' }], speed: 0.5, pitch: 2, volume: 0.5, output: 'opus' });
    const decoded = await decodeForTest(result.audio, 'opus');
    expect(result.sampleRate).to.equal(48000);
    expect(speechDurationSeconds(decoded) / speechDurationSeconds(speech)).to.be.closeTo(2, 0.2);
    expect(medianF0(decoded) / medianF0(speech)).to.be.closeTo(2, 0.2);
    expect(rms(decoded) / rms(speech)).to.be.closeTo(0.5, 0.08);
  });

  it('joins several inputs of different formats and rates into one seamless file', async () => {
    const pcmInput = { audio: encodeRawPcm(await resample(speech, 16000)), format: 'pcm' as const, sampleRate: 16000 };
    const result = await processor.process({ inputs: [wav, pcmInput, { audio: speechMp3Bytes(), format: 'mp3' }], ...neutral, output: 'flac' });
    const decoded = await decodeForTest(result.audio, 'flac');
    expect(result.sampleRate).to.equal(22050);
    expect(durationSeconds(decoded)).to.be.closeTo(3 * durationSeconds(speech), 0.15);
    expect(medianF0(decoded) / medianF0(speech)).to.be.closeTo(1, 0.05);
  });

  it('keeps a loud signal inside full scale at volume 2', async () => {
    const result = await processor.process({ inputs: [wav], ...neutral, volume: 2, output: 'pcm' });
    const decoded = await decodeForTest(result.audio, 'pcm', result.sampleRate);
    expect(peak(speech) * 2).to.be.above(1);
    expect(peak(decoded)).to.be.below(1);
    expect(rms(decoded) / rms(speech)).to.be.within(1.7, 2);
  });

  it('passes audio through untouched when nothing is asked of it', async () => {
    const mp3 = speechMp3Bytes();
    const result = await processor.process({ inputs: [{ audio: mp3, format: 'mp3' }], ...neutral, output: 'mp3' });
    expect(Buffer.from(result.audio).equals(Buffer.from(mp3))).to.equal(true);
    expect(result.durationSeconds).to.be.closeTo(durationSeconds(speech), 0.1);
  });

  it('reports bad provider audio as TTS_ERR_UPSTREAM_BAD_RESPONSE', async () => {
    await expectCode({ inputs: [{ audio: new TextEncoder().encode('{"error":"oops"}'), format: 'mp3' }], ...neutral, output: 'wav' }, 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
    // Declared mp3, really WAV: the Content-Type lies.
    await expectCode({ inputs: [{ audio: speechWavBytes(), format: 'mp3' }], ...neutral, output: 'wav' }, 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
  });

  it('reports an output it cannot make as TTS_ERR_UNSUPPORTED_FORMAT: aac without ffmpeg', async () => {
    const withoutFfmpeg = new AudioProcessor({ workers: 1, ffmpegPath: '/nonexistent/bin/ffmpeg' });
    try {
      expect(withoutFfmpeg.encodableFormats).to.not.include('aac');
      expect(withoutFfmpeg.decodableFormats).to.not.include('aac');
      await expectGatewayError(withoutFfmpeg.process({ inputs: [wav], ...neutral, output: 'aac' }), 'TTS_ERR_UNSUPPORTED_FORMAT');
      await expectGatewayError(withoutFfmpeg.openStream({ ...neutral, output: 'aac' }), 'TTS_ERR_UNSUPPORTED_FORMAT');
    } finally {
      await withoutFfmpeg.close();
    }
  });

  it('hands its ffmpeg probe to new workers, which then run none of their own', async () => {
    // ffmpeg behind a script that notes each run, on a path no other test has probed.
    const folder = mkdtempSync(join(tmpdir(), 'worker-probe-'));
    const calls = join(folder, 'calls.txt');
    const wrapper = join(folder, 'noting-ffmpeg');
    writeFileSync(wrapper, `#!/bin/sh\necho "$*" >> '${calls}'\nexec ffmpeg "$@"\n`);
    chmodSync(wrapper, 0o755);
    const noted = () => readFileSync(calls, 'utf8').trim().split('\n');
    expect(probeFfmpeg({ ffmpegPath: wrapper }).available).to.equal(true);
    expect(noted().filter((run) => run.includes('-version'))).to.have.length(1);
    const probed = new AudioProcessor({ workers: 2, ffmpegPath: wrapper });
    try {
      const results = await Promise.all([1, 2].map(() => probed.process({ inputs: [wav], ...neutral, output: 'aac' })));
      for (const result of results) expect(sniffAudioFormat(result.audio)).to.equal('aac');
      expect(noted().filter((run) => run.includes('-version')), noted().join(' | ')).to.have.length(1);
      expect(noted().filter((run) => run.includes('adts'))).to.have.length(2);
    } finally {
      await probed.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('makes and reads aac through ffmpeg', async () => {
    expect(processor.encodableFormats).to.include('aac');
    const result = await processor.process({ inputs: [wav], ...neutral, speed: 1.5, output: 'aac' });
    expect(sniffAudioFormat(result.audio)).to.equal('aac');
    expect(result.sampleRate).to.equal(22050);
    const decoded = await decodeForTest(result.audio, 'aac');
    expect(speechDurationSeconds(decoded) / speechDurationSeconds(speech)).to.be.closeTo(1 / 1.5, 0.05);
    const back = await processor.process({ inputs: [{ audio: result.audio, format: 'aac' }], ...neutral, output: 'wav' });
    expect(durationSeconds(await decodeForTest(back.audio, 'wav'))).to.be.closeTo(durationSeconds(decoded), 0.01);
  });

  it('rejects out-of-range multipliers', async () => {
    await expectCode({ inputs: [wav], ...neutral, speed: 0, output: 'wav' }, 'TTS_ERR_VALIDATION');
    await expectCode({ inputs: [wav], ...neutral, volume: Number.NaN, output: 'wav' }, 'TTS_ERR_VALIDATION');
  });

  it('honours an already aborted signal', async () => {
    const controller = new AbortController();
    controller.abort();
    try {
      await processor.process({ inputs: [wav], ...neutral, output: 'wav' }, { signal: controller.signal });
      expect.fail('expected cancellation');
    } catch (error) {
      expect((error as GatewayError).code).to.equal('TTS_ERR_CANCELLED');
    }
  });
});
