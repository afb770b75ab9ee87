import type { AppliedPlan } from '../../core';

/**
 * The `X-TTS-Applied` value, e.g. `speed=native; pitch=dsp; volume=default; format=transcoded; chunks=3`,
 * ending in `; received=wav` when the provider sent another container than it was asked for.
 */
export function formatApplied(applied: AppliedPlan): string {
  const value = `speed=${applied.speed}; pitch=${applied.pitch}; volume=${applied.volume}; format=${applied.format}; chunks=${applied.chunks}`;
  return applied.received === undefined ? value : `${value}; received=${applied.received}`;
}
