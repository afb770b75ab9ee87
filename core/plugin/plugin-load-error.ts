/** Why a provider could not be loaded; each stops the start with a message that says what to do. */
export type PluginLoadErrorCode =
  | 'TTS_PLUGIN_NOT_INSTALLED'
  | 'TTS_PLUGIN_LOAD_FAILED'
  | 'TTS_PLUGIN_BAD_SHAPE'
  | 'TTS_PLUGIN_CONTRACT_MISMATCH'
  | 'TTS_PLUGIN_INVALID_OPTIONS'
  | 'TTS_PLUGIN_CREATE_FAILED'
  | 'TTS_PLUGIN_DUPLICATE_ID'
  | 'TTS_PLUGIN_MODEL_CLASH';

/**
 * A start-up error of the plugin loader (not an HTTP error: the gateway never starts serving).
 * The message names the provider entry (`providers[2]`) and never holds an option's secret.
 */
export class PluginLoadError extends Error {
  readonly code: PluginLoadErrorCode;
  /** The config entry the problem is in, e.g. `providers[2]`. */
  readonly configPath?: string;

  constructor(code: PluginLoadErrorCode, message: string, options: { configPath?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PluginLoadError';
    this.code = code;
    this.configPath = options.configPath;
  }
}
