import type { AppliedPlan } from '../../core';

/** An AppliedPlan for fakes: nothing done by anyone, one call, unless overridden. */
export function appliedPlan(overrides: Partial<AppliedPlan> = {}): AppliedPlan {
  return { speed: 'default', pitch: 'default', volume: 'default', format: 'native', chunks: 1, ...overrides };
}
