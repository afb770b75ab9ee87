import { ConfigError } from '../config';
import { GatewayError, PluginLoadError } from '../core';

/** A start-up failure as one line for the operator: the message only, never a stack trace. */
export function describeStartupError(error: unknown): string {
  if (error instanceof ConfigError || error instanceof PluginLoadError || error instanceof GatewayError) return error.message;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
