import type { PluginContext } from '../../core';

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
  const quiet = (): void => undefined;
  const warn = warnings ? (message: string, meta?: Record<string, unknown>) => void warnings.push({ message, meta }) : quiet;
  return { instanceId, logger: { debug: quiet, info: quiet, warn, error: quiet }, fetch: fetchFunction, signal: new AbortController().signal };
}
