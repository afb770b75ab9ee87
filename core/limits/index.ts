export type { BoundedAddition, BoundedAdditionResult, WindowCount, WindowCounters } from './window-counters';
export { MemoryWindowCounters, type MemoryWindowCountersOptions } from './memory-window-counters';
export { SynthesisLimiter, type AppliedLimit, type Caller, type LimitUnit, type LimitVerdict, type SynthesisLimiterOptions } from './synthesis-limiter';
export { cachedAccountLimits } from './cached-account-limits';
