export { ResilientProvider, type ResilientProviderOptions } from './resilient-provider';
export { ProviderBreaker, type BreakerSettings, type BreakerState } from './provider-breaker';
export { isTransientFailure } from './transient-failure';
export { retryDelayMs, type BackoffSettings } from './retry-delay';
