import { expect } from 'chai';
import { applyGain, LIMITER_CEILING, softLimit } from '../../../core/audio/dsp/gain';
import { joinPcm } from '../../../core/audio/dsp/join';
import { resample } from '../../../core/audio/dsp/resample';
import { changeTempoAndPitch } from '../../../core/audio/dsp/sonic';
import { durationSeconds, medianF0, peak, rms, speechDurationSeconds } from '../../support/audio-analysis';
import { speechPcm, tone } from './speech-fixture';

describe('audio DSP', () => {
  const speech = speechPcm();
  const speechLength = speechDurationSeconds(speech);
  const speechF0 = medianF0(speech);

  it('measures the fixture as speech with a plausible voice', () => {
    expect(speechLength).to.be.within(3, 4.2);
    expect(speechF0).to.be.within(70, 200);
  });

  for (const speed of [2, 0.5]) {
    it(`speed ${speed} scales speech duration by ${1 / speed} and keeps the pitch`, async () => {
      const changed = await changeTempoAndPitch(speech, speed, 1);
      expect(speechDurationSeconds(changed) / speechLength).to.be.closeTo(1 / speed, 0.1 / speed);
      expect(medianF0(changed) / speechF0).to.be.closeTo(1, 0.1);
    });
  }

  for (const pitch of [2, 0.5]) {
    it(`pitch ${pitch} scales median F0 by ${pitch} and keeps the duration`, async () => {
      const changed = await changeTempoAndPitch(speech, 1, pitch);
      expect(medianF0(changed) / speechF0).to.be.closeTo(pitch, pitch * 0.1);
      expect(speechDurationSeconds(changed) / speechLength).to.be.closeTo(1, 0.1);
    });
  }

  it('combines speed and pitch', async () => {
    const changed = await changeTempoAndPitch(speech, 1.5, 1.5);
    expect(speechDurationSeconds(changed) / speechLength).to.be.closeTo(1 / 1.5, 0.07);
    expect(medianF0(changed) / speechF0).to.be.closeTo(1.5, 0.15);
  });

  it('volume 2 doubles RMS when there is headroom', () => {
    const quiet = applyGain(speech, 0.4);
    const louder = applyGain(quiet, 2);
    expect(peak(quiet) * 2).to.be.below(0.9);
    expect(rms(louder) / rms(quiet)).to.be.closeTo(2, 0.001);
    expect(rms(applyGain(speech, 0.5)) / rms(speech)).to.be.closeTo(0.5, 0.001);
  });

  it('volume 2 on a loud signal stays within range, smooth and with the same signs', () => {
    const loud = tone(220, 0.5, 0.95, 22050);
    const louder = applyGain(loud, 2);
    expect(peak(louder)).to.be.at.most(LIMITER_CEILING + 1e-6).and.below(1);
    for (let index = 0; index < loud.samples.length; index += 1) {
      // No wrap-around: a positive peak stays positive (and large), a negative one negative.
      if (Math.abs(loud.samples[index]) > 0.5) {
        expect(Math.sign(louder.samples[index])).to.equal(Math.sign(loud.samples[index]));
        expect(Math.abs(louder.samples[index])).to.be.above(0.9);
      }
    }
    // Monotonic curve: louder input never gives quieter output.
    for (let level = 0; level < 4; level += 0.01) expect(softLimit(level + 0.01)).to.be.at.least(softLimit(level));
    expect(softLimit(-3)).to.equal(-softLimit(3));
  });

  it('resamples with the right length and keeps a tone at its frequency', async () => {
    const source = tone(440, 1, 0.5, 22050);
    const converted = await resample(source, 48000);
    expect(converted.sampleRate).to.equal(48000);
    expect(durationSeconds(converted)).to.be.closeTo(1, 0.002);
    expect(rms(converted)).to.be.closeTo(rms(source), 0.01);
    expect(medianF0(converted)).to.be.closeTo(440, 5);
  });

  it('joins two chunks without a click at the seam', async () => {
    const rate = 22050;
    // The worst case: one chunk ends on a positive peak, the next starts on a negative one.
    const first = { samples: new Float32Array(rate / 2).fill(0.8), sampleRate: rate };
    const second = { samples: new Float32Array(rate / 2).fill(-0.8), sampleRate: rate };
    const joined = await joinPcm([first, second]);
    expect(durationSeconds(joined)).to.be.closeTo(1, 0.02);
    let largestJump = 0;
    for (let index = 1; index < joined.samples.length; index += 1) largestJump = Math.max(largestJump, Math.abs(joined.samples[index] - joined.samples[index - 1]));
    // A butt splice would jump by 1.6; a 10 ms crossfade spreads it over ~220 samples.
    expect(largestJump).to.be.below(0.02);
  });

  it('joins chunks of different rates at the highest rate, keeping speech intact', async () => {
    const lower = await resample(speech, 16000);
    const joined = await joinPcm([speech, lower]);
    expect(joined.sampleRate).to.equal(22050);
    expect(durationSeconds(joined)).to.be.closeTo(2 * durationSeconds(speech), 0.05);
    expect(medianF0(joined) / speechF0).to.be.closeTo(1, 0.05);
  });
});
