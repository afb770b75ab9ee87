import { formatErrorMessage, START_ERROR_CATALOGUE, type ErrorParams, type StartErrorCode } from '../errors';

/** Why a provider could not be loaded; each stops the start with a message that says what to do. */
export type PluginLoadErrorCode = Exclude<StartErrorCode, 'TTS_CONFIG_INVALID'>;

/**
 * A start-up error of the plugin loader (not an HTTP error: the gateway never starts serving).
 * Its message is the code's template in core's catalogue; it names the provider entry
 * (`providers[2]`) and never holds an option's secret.
 */
export class PluginLoadError extends Error {
  readonly code: PluginLoadErrorCode;
  /** The config entry the problem is in, e.g. `providers[2]`. */
  readonly configPath?: string;

  constructor(code: PluginLoadErrorCode, params: ErrorParams, options: { configPath?: string; cause?: unknown } = {}) {
    super(formatErrorMessage(START_ERROR_CATALOGUE[code].template, params), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PluginLoadError';
    this.code = code;
    this.configPath = options.configPath;
  }
}
