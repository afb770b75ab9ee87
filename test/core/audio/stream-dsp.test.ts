import { expect } from 'chai';
import { joinPcm, SEAM_CROSSFADE_SECONDS } from '../../../core/audio/dsp/join';
import { resample } from '../../../core/audio/dsp/resample';
import { SeamJoiner } from '../../../core/audio/dsp/seam-joiner';
import { changeTempoAndPitch, SonicStream } from '../../../core/audio/dsp/sonic';
import { StreamResampler } from '../../../core/audio/dsp/stream-resampler';
import type { PcmAudio } from '../../../core/audio/pcm';
import { durationSeconds, medianF0, rms } from '../../support/audio-analysis';
import { speechPcm, tone } from './speech-fixture';

/** Cuts samples into pieces of the given sizes, cycling through them. */
function pieces(samples: Float32Array, sizes: readonly number[]): Float32Array[] {
  const result: Float32Array[] = [];
  for (let start = 0, index = 0; start < samples.length; index += 1) {
    const size = sizes[index % sizes.length];
    result.push(samples.subarray(start, start + size));
    start += size;
  }
  return result;
}

function flatten(parts: readonly Float32Array[]): Float32Array {
  const output = new Float32Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    output.set(part, offset);
    offset += part.length;
  }
  return output;
}

function largestDifference(first: Float32Array, second: Float32Array): number {
  let largest = 0;
  for (let index = 0; index < Math.min(first.length, second.length); index += 1) largest = Math.max(largest, Math.abs(first[index] - second[index]));
  return largest;
}

/** Signal-to-error ratio in dB against the exact tone, away from the edges. */
function toneSnr(samples: Float32Array, expected: PcmAudio): number {
  let signal = 0;
  let error = 0;
  for (let index = 500; index < Math.min(samples.length, expected.samples.length) - 500; index += 1) {
    signal += expected.samples[index] ** 2;
    error += (samples[index] - expected.samples[index]) ** 2;
  }
  return 10 * Math.log10(signal / error);
}

describe('audio stream DSP', () => {
  describe('StreamResampler', () => {
    for (const [from, to] of [
      [22050, 24000],
      [24000, 16000],
      [16000, 48000],
      [48000, 8000],
    ]) {
      it(`converts ${from} Hz to ${to} Hz in uneven pieces: exact length, clean tone, same as in one piece`, () => {
        const input = tone(440, 1, 0.5, from);
        const streamed = new StreamResampler(from, to);
        const output = flatten([...pieces(input.samples, [1, 777, 4096, 13]).map((piece) => streamed.write(piece)), streamed.end()]);
        const whole = new StreamResampler(from, to);
        const once = flatten([whole.write(input.samples), whole.end()]);
        expect(output.length).to.equal(Math.round((input.samples.length * to) / from));
        expect(largestDifference(output, once)).to.be.below(1e-6);
        expect(toneSnr(output, tone(440, 1, 0.5, to))).to.be.above(70);
      });
    }

    it('removes what the lower rate cannot carry', () => {
      // 5 kHz cannot exist at 8 kHz (Nyquist 4 kHz): it must be filtered out, not folded to 3 kHz.
      const resampler = new StreamResampler(48000, 8000);
      const output = flatten([resampler.write(tone(5000, 1, 0.5, 48000).samples), resampler.end()]);
      expect(rms({ samples: output.subarray(200, -200), sampleRate: 8000 })).to.be.below(0.5 * 0.001);
    });

    it('passes audio through untouched at equal rates', () => {
      const input = tone(440, 0.1, 0.5, 24000).samples;
      const resampler = new StreamResampler(24000, 24000);
      expect(resampler.write(input)).to.equal(input);
      expect(resampler.end()).to.have.length(0);
    });

    it('agrees with the whole-file resampler on speech', async () => {
      const speech = speechPcm();
      const resampler = new StreamResampler(22050, 24000);
      const streamed = flatten([...pieces(speech.samples, [3000]).map((piece) => resampler.write(piece)), resampler.end()]);
      const reference = await resample(speech, 24000);
      expect(streamed.length).to.be.closeTo(reference.samples.length, 1);
      expect(largestDifference(streamed.subarray(100, -100), reference.samples.subarray(100, -100))).to.be.below(0.01);
    });
  });

  describe('SeamJoiner', () => {
    const rate = 22050;
    const fade = Math.round(SEAM_CROSSFADE_SECONDS * rate);
    const constant = (length: number, value: number) => new Float32Array(length).fill(value);
    // Includes answers shorter than the fade, where the overlap shrinks.
    const answers = [constant(11025, 0.8), constant(9000, -0.8), constant(50, 0.3), constant(3000, 0.1), constant(7, -0.5), constant(4000, 0.6)];

    for (const sizes of [[1000], [37], [7, 1, 300], [100_000]]) {
      it(`joins answers fed in pieces of ${sizes.join('/')} exactly as joinPcm joins them whole`, async () => {
        const joiner = new SeamJoiner(fade);
        const output: Float32Array[] = [];
        for (const answer of answers) {
          joiner.startAnswer();
          for (const piece of pieces(answer, sizes)) output.push(joiner.add(piece));
        }
        output.push(joiner.end());
        const expected = await joinPcm(answers.map((samples) => ({ samples, sampleRate: rate })));
        const joined = flatten(output);
        expect(joined.length).to.equal(expected.samples.length);
        expect(largestDifference(joined, expected.samples)).to.equal(0);
      });
    }

    it('releases everything but the tail that a seam may still change', () => {
      const joiner = new SeamJoiner(fade);
      joiner.startAnswer();
      expect(joiner.add(constant(10_000, 0.5))).to.have.length(10_000 - fade);
      joiner.startAnswer();
      // The new answer's head must be as long as the old tail before the seam is final.
      expect(joiner.add(constant(fade - 1, 0.5))).to.have.length(0);
      // Tail and head now overlap: fade + 9 joined samples, of which the last `fade` stay back.
      expect(joiner.add(constant(10, 0.5))).to.have.length(9);
    });
  });

  describe('SonicStream', () => {
    it('keeps tempo and pitch across piece borders as in one go', async () => {
      const speech = speechPcm();
      const whole = await changeTempoAndPitch(speech, 1.7, 0.8);
      const stream = await SonicStream.open(speech.sampleRate, 1.7, 0.8);
      try {
        const output = flatten([...pieces(speech.samples, [441, 5000, 17]).map((piece) => stream.write(piece)), stream.flush()]);
        // Sonic picks its pitch periods where the input happens to end, so samples differ a little
        // with the piece sizes; the length and the effects do not.
        expect(output.length).to.be.closeTo(whole.samples.length, whole.samples.length * 0.002);
        expect(durationSeconds({ samples: output, sampleRate: speech.sampleRate })).to.be.closeTo(durationSeconds(speech) / 1.7, 0.05);
        expect(medianF0({ samples: output, sampleRate: speech.sampleRate }) / medianF0(speech)).to.be.closeTo(0.8, 0.08);
      } finally {
        stream.dispose();
      }
    });
  });
});
