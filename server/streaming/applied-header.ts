import type { AppliedPlan } from '../../core';

const SETTINGS = ['speed', 'pitch', 'volume'] as const;

/**
 * The `X-TTS-Applied` value, e.g. `speed=native; pitch=dsp; volume=default; format=transcoded; chunks=3`,
 * ending in `; received=wav` when the provider sent another container than it was asked for.
 */
export function formatApplied(applied: AppliedPlan): string {
  const parts = [...SETTINGS.map((setting) => `${setting}=${applied[setting]}`), `format=${applied.format}`, `chunks=${applied.chunks}`];
  if (applied.received !== undefined) parts.push(`received=${applied.received}`);
  return parts.join('; ');
}
