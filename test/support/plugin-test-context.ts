import type { PluginContext } from '../../core';
import { QUIET_LOGGER } from './quiet-logger';

/** A warning a plugin logged during a test. */
export interface LoggedWarning {
  readonly message: string;
  readonly meta?: Record<string, unknown>;
}

/**
 * The context the gateway would hand a plugin, for tests: a quiet logger (its warnings pushed
 * onto `warnings` when one is given), the fetch to call and a signal that never aborts.
 */
export function pluginTestContext(instanceId: string, fetchFunction: typeof fetch, warnings?: LoggedWarning[]): PluginContext {
  const logger = warnings ? { ...QUIET_LOGGER, warn: (message: string, meta?: Record<string, unknown>) => void warnings.push({ message, meta }) } : QUIET_LOGGER;
  return { instanceId, logger, fetch: fetchFunction, signal: new AbortController().signal };
}
