import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeAudio } from '../../../core/audio/decode/decode-audio';
import { resample } from '../../../core/audio/dsp/resample';
import { encodeAudio } from '../../../core/audio/encode/encode-audio';
import { createStreamEncoder } from '../../../core/audio/encode/create-stream-encoder';
import { probeFfmpeg } from '../../../core/audio/ffmpeg/ffmpeg-probe';
import { FrameWalker, truncationOf } from '../../../core/audio/frame-walker';
import { readMp3Header } from '../../../core/audio/mp3-header';
import type { PcmAudio } from '../../../core/audio/pcm';
import { sniffAudioFormat } from '../../../core/audio/sniff-audio-format';
import { countMp3Frames } from '../../support/audio-analysis';
import { speechPcm } from './speech-fixture';

/** LAME's encoder delay plus the decoder's: where speech starts in an MP3 that does not declare them. */
const UNDECLARED_DELAY = 576 + 529;

function samplesPerFrame(rate: number): number {
  return rate >= 32000 ? 1152 : 576;
}

/** Pearson correlation of two signals over their common length. */
function correlation(first: Float32Array, second: Float32Array): number {
  const length = Math.min(first.length, second.length);
  let product = 0;
  let firstSquares = 0;
  let secondSquares = 0;
  for (let index = 0; index < length; index += 1) {
    product += first[index] * second[index];
    firstSquares += first[index] ** 2;
    secondSquares += second[index] ** 2;
  }
  return product / Math.sqrt(firstSquares * secondSquares);
}

/** Samples ffmpeg decodes from a file (mono s16le), and the encoder ffprobe reads from its LAME tag. */
function ffmpegView(bytes: Uint8Array): { samples: number; encoder: string } {
  const folder = mkdtempSync(join(tmpdir(), 'mp3-info-'));
  try {
    const file = join(folder, 'speech.mp3');
    writeFileSync(file, bytes);
    const pcm = execFileSync(probeFfmpeg().path, ['-v', 'error', '-i', file, '-f', 's16le', '-ac', '1', '-'], { maxBuffer: 64 * 1024 * 1024 });
    // ffprobe reports the encoder only when the LAME tag's CRC checks.
    const encoder = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream_tags=encoder', '-of', 'csv=p=0', file], { encoding: 'utf8' }).trim();
    return { samples: pcm.length / 2, encoder };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('whole MP3 files declare LAME delay and padding (Xing/Info frame)', function () {
  this.timeout(60_000);
  const speech = speechPcm();

  // MPEG-2 at 22.05 and 24 kHz (48 kb/s, the smallest frames), MPEG-1 at 44.1 kHz.
  for (const rate of [22050, 24000, 44100]) {
    describe(`eSpeak speech at ${rate} Hz`, () => {
      let input: PcmAudio;
      let mp3: Uint8Array;

      before(async () => {
        input = await resample(speech, rate);
        const encoded = await encodeAudio(input, 'mp3');
        expect(encoded.sampleRate).to.equal(rate);
        mp3 = encoded.audio;
      });

      it('decodes (project decoder) to the input: same sample count within one frame, speech not delayed', async () => {
        const decoded = await decodeAudio(mp3, 'mp3');
        expect(decoded.sampleRate).to.equal(rate);
        expect(decoded.samples.length - input.samples.length, 'decoded minus input samples').to.be.within(-samplesPerFrame(rate), samplesPerFrame(rate));
        const aligned = correlation(decoded.samples, input.samples);
        const delayed = correlation(decoded.samples.subarray(UNDECLARED_DELAY), input.samples);
        expect(aligned, 'correlation with the input, not shifted').to.be.above(0.8);
        expect(aligned).to.be.above(delayed);
      });

      it('decodes (ffmpeg) to the input sample count within one frame, and ffprobe reads the LAME tag', () => {
        const view = ffmpegView(mp3);
        expect(view.samples - input.samples.length, 'ffmpeg samples minus input samples').to.be.within(-samplesPerFrame(rate), samplesPerFrame(rate));
        expect(view.encoder).to.match(/^LAME/);
      });

      it('is still one whole MP3 to the gateway: sniffed, not cut short, the Info frame counted as no audio', () => {
        expect(sniffAudioFormat(mp3)).to.equal('mp3');
        // Players that guess the length from the first frame's bitrate must read the stream's.
        const second = readMp3Header(mp3, 0)!.length;
        expect(mp3[2] >> 4, 'bitrate index of the first frame').to.equal(mp3[second + 2] >> 4);
        expect(truncationOf(mp3, 'mp3')).to.equal(undefined);
        const walker = FrameWalker.for('mp3')!;
        walker.push(mp3);
        const audioFrames = countMp3Frames(mp3) - 1;
        expect(walker.seconds).to.be.closeTo((audioFrames * samplesPerFrame(rate)) / rate, 1e-9);
      });
    });
  }

  it('leaves streamed MP3 without one: its counts are known only at the end', async () => {
    const encoder = await createStreamEncoder('mp3', 22050);
    const bytes = Buffer.concat([await encoder.write(speech.samples), await encoder.end()]);
    encoder.dispose();
    expect(bytes.includes('Info')).to.equal(false);
    expect(bytes.includes('Xing')).to.equal(false);
  });
});
