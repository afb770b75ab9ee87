/**
 * The gateway's multipliers (speed 2.0 halves the duration, pitch 2.0 is an octave up, volume
 * 2.0 doubles the amplitude) in eSpeak NG's own settings. See models.ts for the ranges
 * where these were measured to hold.
 */
import type { EngineProsody } from './worker-messages';

/** eSpeak's default speaking rate, words per minute. */
const DEFAULT_RATE = 175;
const MIN_RATE = 80;
const MAX_RATE = 450;

/**
 * Median F0 ratio (to the default, 50) for each base-pitch setting 0, 5, ..., 100, measured on
 * four voices with intonation turned off (range 0); the voices agreed within 0.5%. eSpeak's
 * scale is neither linear nor a plain exponential, hence a table.
 */
const PITCH_RATIO_BY_SETTING: readonly number[] = [
  0.603, 0.633, 0.664, 0.695, 0.727, 0.77, 0.808, 0.852, 0.895, 0.945, 1, 1.057, 1.119, 1.188, 1.256, 1.331, 1.411,
  1.5, 1.592, 1.694, 1.773,
];
const PITCH_SETTING_STEP = 5;

export interface ProsodyMultipliers {
  readonly speed?: number;
  readonly pitch?: number;
  readonly volume?: number;
}

export function toEngineProsody(multipliers: ProsodyMultipliers): EngineProsody {
  const speed = multipliers.speed ?? 1;
  const pitch = multipliers.pitch ?? 1;
  const volume = multipliers.volume ?? 1;
  return {
    rate: clamp(Math.round(DEFAULT_RATE * speed), MIN_RATE, MAX_RATE),
    pitch: pitchSetting(pitch),
    // The base pitch alone moves only the floor of the intonation; scaling the range by the
    // same factor moves the whole contour, so the median F0 follows the multiplier.
    range: clamp(Math.round(50 * pitch), 0, 100),
    // eSpeak's own amplitude setting is linear for most voices but not all (Maori is 28% off
    // at 0.5), so volume is an exact gain on the samples instead.
    gain: clamp(volume, 0, 4),
  };
}

/** The base-pitch setting whose measured F0 ratio is `multiplier` (log-linear interpolation). */
export function pitchSetting(multiplier: number): number {
  const table = PITCH_RATIO_BY_SETTING;
  if (multiplier <= table[0]) return 0;
  if (multiplier >= table[table.length - 1]) return (table.length - 1) * PITCH_SETTING_STEP;
  let upper = 1;
  while (table[upper] < multiplier) upper += 1;
  const lower = upper - 1;
  const fraction = Math.log(multiplier / table[lower]) / Math.log(table[upper] / table[lower]);
  return Math.round((lower + fraction) * PITCH_SETTING_STEP);
}

function clamp(value: number, minimum: number, maximum: number): number {
  return Math.min(maximum, Math.max(minimum, value));
}
