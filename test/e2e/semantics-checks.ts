/** The assertions of the uniform-semantics test: effects measured on audio, values seen in requests. */
import { expect } from 'chai';
import { LIMITER_KNEE, type Adjustment } from '../../core';
import { EXPECTED_NATIVE, type SentSynthesis } from './outgoing-requests';
import type { Synthesized } from './semantics-pipeline';
import { describeRatio, withinRatio, type SpeechMeasures } from './speech-measures';

const TOLERANCE = 0.1;

function expectRatio(what: string, actual: number, expected: number): void {
  expect(withinRatio(actual, expected, TOLERANCE), describeRatio(what, actual, expected)).to.equal(true);
}

/**
 * What the audio must show when the given multipliers were applied to it (1 = not applied):
 * speech duration divided by speed, median F0 multiplied by pitch, RMS multiplied by volume
 * (or, when the result would clip, a peak within full scale, a louder RMS and no wrap-around).
 */
export function expectEffects(baseline: SpeechMeasures, measured: SpeechMeasures, applied: Record<Adjustment, number>): void {
  expectRatio(`speech duration (speed ${applied.speed})`, measured.speech, baseline.speech / applied.speed);
  expectRatio(`median F0 (pitch ${applied.pitch})`, measured.f0, baseline.f0 * applied.pitch);
  // Gain 1 is skipped altogether; below the limiter's knee the gain is exact.
  if (applied.volume === 1 || baseline.peak * applied.volume <= LIMITER_KNEE) {
    expectRatio(`RMS (volume ${applied.volume})`, measured.rms, baseline.rms * applied.volume);
    return;
  }
  expect(measured.peak, 'peak after gain').to.be.at.most(1);
  expect(measured.rms, 'RMS after gain').to.be.greaterThan(baseline.rms);
  // A wrap-around flips a sample from near +1 to near -1: a step no gain of the baseline makes.
  expect(measured.maxStep, 'largest sample-to-sample step').to.be.at.most(baseline.maxStep * applied.volume * (1 + TOLERANCE));
}

/**
 * A native adjustment reached the provider: the gateway asked for the multiplier on every chunk
 * and the provider's API received it in its own unit. A DSP adjustment must reach neither.
 */
export function expectRequested(pluginId: string, output: Synthesized, adjustment: Adjustment, value: number, native: boolean): void {
  expect(output.providerCalls.length, 'provider calls').to.be.greaterThan(0);
  for (const call of output.providerCalls) expect(call.request[adjustment], `${adjustment} asked of the provider`).to.equal(native ? value : undefined);
  if (!output.sent) return;
  expect(output.sent.length, 'calls the stand-in received').to.equal(output.providerCalls.length);
  const mapping = EXPECTED_NATIVE[pluginId]?.[adjustment];
  for (const sent of output.sent) {
    if (!native) {
      expect(sent.prosody[adjustment], `${adjustment} sent upstream although the gateway applies it`).to.equal(undefined);
      continue;
    }
    expect(mapping, `${pluginId} has a documented mapping for ${adjustment}`).to.be.a('function');
    expectSentValue(sent, adjustment, mapping?.(value));
  }
}

function expectSentValue(sent: SentSynthesis, adjustment: Adjustment, expected: string | number | undefined): void {
  const actual = sent.prosody[adjustment];
  if (typeof expected === 'number') expect(Number(actual), `${adjustment} sent upstream`).to.be.closeTo(expected, 0.01);
  else expect(actual, `${adjustment} sent upstream`).to.equal(expected);
}

/** Code points, as the providers' limits count them. */
export function codePoints(text: string): number {
  return [...text].length;
}
