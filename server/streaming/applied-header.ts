import type { AppliedPlan } from '../../core';

const SETTINGS = ['speed', 'pitch', 'volume'] as const;

/** The `X-TTS-Applied` value, e.g. `speed=native; pitch=dsp; volume=default; format=transcoded; chunks=3`. */
export function formatApplied(applied: AppliedPlan): string {
  return [...SETTINGS.map((setting) => `${setting}=${applied[setting]}`), `format=${applied.format}`, `chunks=${applied.chunks}`].join('; ');
}
