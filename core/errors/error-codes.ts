/**
 * The one catalogue of coded errors. Each code has one message template, and each code an HTTP
 * answer can carry has its status and whether a retry (another attempt, another provider) can
 * help. Nothing else decides status codes.
 *
 * Templates: `{name}` is a parameter; `[...]` is a part written only when every parameter in it
 * is given. Messages are safe to show a client: no parameter may hold a key, a password, the
 * synthesized text or a stack trace.
 */
export const ERROR_CATALOGUE = {
  /** The message says which field breaks which rule (`speed must be between 0.5 and 2.0`). */
  TTS_ERR_VALIDATION: { status: 400, retryable: false, template: '{problem}' },
  TTS_ERR_MALFORMED_JSON: { status: 400, retryable: false, template: 'Request body is not valid JSON' },
  TTS_ERR_UNAUTHORIZED: { status: 401, retryable: false, template: '{problem}' },
  TTS_ERR_FORBIDDEN: { status: 403, retryable: false, template: '{problem}' },
  TTS_ERR_MODEL_NOT_FOUND: { status: 404, retryable: false, template: "{provider} has no model '{model}'[; it serves {served}]" },
  TTS_ERR_VOICE_NOT_FOUND: { status: 404, retryable: false, template: "{provider} has no voice '{voice}' for model {model}" },
  TTS_ERR_NOT_FOUND: { status: 404, retryable: false, template: 'No such {what}' },
  /** Node's HTTP parser met a request that came too slowly (its headers or its whole body). */
  TTS_ERR_REQUEST_TIMEOUT: { status: 408, retryable: false, template: 'The request did not arrive within the time the gateway allows' },
  TTS_ERR_CONFLICT: { status: 409, retryable: false, template: '{problem}' },
  TTS_ERR_PAYLOAD_TOO_LARGE: { status: 413, retryable: false, template: 'Request body is larger than the limit of {limitBytes} bytes' },
  /** The audio a request asks for would be longer than `synthesis.maxAudioDuration`; stopped early. */
  TTS_ERR_AUDIO_TOO_LONG: { status: 413, retryable: false, template: 'The audio would be longer than the limit of {limit}[: {reason}]' },
  /** A download's If-Match or If-Unmodified-Since does not hold: the file is not the one the client names. */
  TTS_ERR_PRECONDITION_FAILED: { status: 412, retryable: false, template: 'The file does not meet the request\'s {header} condition' },
  TTS_ERR_RANGE_NOT_SATISFIABLE: { status: 416, retryable: false, template: 'The requested range is outside the file' },
  TTS_ERR_UNSUPPORTED_FORMAT: { status: 422, retryable: false, template: '{subject} cannot produce {format} audio[: {reason}]' },
  TTS_ERR_RATE_LIMITED: { status: 429, retryable: true, template: '{provider} rate limit reached; retry after {retryAfterSeconds} s' },
  TTS_ERR_HEADERS_TOO_LARGE: { status: 431, retryable: false, template: 'The request headers are larger than the limit of {limitBytes} bytes' },
  /** Upstream errors name the provider's own code; its message text goes to the log only (it may hold internals). */
  TTS_ERR_UPSTREAM: { status: 502, retryable: true, template: '{provider} answered with an error ({upstream})[: {providerCode}]' },
  TTS_ERR_UPSTREAM_AUTH: { status: 502, retryable: false, template: "{provider} rejected the gateway's credentials ({upstream})[: {providerCode}]" },
  /** The request is fine; the gateway's upstream account is out of credit or its billing stopped. */
  TTS_ERR_UPSTREAM_QUOTA: {
    status: 502,
    retryable: false,
    template: "{provider}: the provider account's quota or billing is exhausted ({upstream})[: {providerCode}]",
  },
  TTS_ERR_UPSTREAM_BAD_RESPONSE: { status: 502, retryable: true, template: '{provider} sent an unusable answer: {problem}' },
  TTS_ERR_UNAVAILABLE: { status: 503, retryable: true, template: '{provider} is unavailable: {reason}' },
  /** The audio cannot be stored: the gateway's disk is full, or the account's storage quota is used up. */
  TTS_ERR_STORAGE_FULL: { status: 507, retryable: false, template: '{subject} has no room for this audio[: {reason}]' },
  TTS_ERR_TIMEOUT: { status: 504, retryable: true, template: '{subject} did not answer within {limit}' },
  TTS_ERR_CANCELLED: { status: 499, retryable: false, template: '{subject} was cancelled' },
  TTS_ERR_INTERNAL: { status: 500, retryable: false, template: 'Internal error: {problem}' },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/**
 * Errors that stop the start (a plugin that cannot be loaded, an invalid configuration): they
 * never reach an HTTP client, so they have a template and no status.
 */
export const START_ERROR_CATALOGUE = {
  TTS_PLUGIN_NOT_INSTALLED: { template: 'Plugin {plugin} ({configPath}) is not installed: {hint}' },
  TTS_PLUGIN_LOAD_FAILED: { template: 'Plugin {plugin} ({configPath}) cannot be loaded: {reason}' },
  TTS_PLUGIN_BAD_SHAPE: { template: 'Plugin {plugin} ({configPath}) does not fit the plugin contract: {problem}' },
  TTS_PLUGIN_CONTRACT_MISMATCH: { template: 'Plugin {plugin} ({configPath}) implements contract {found}; this gateway supports "{supported}"[: {advice}]' },
  TTS_PLUGIN_INVALID_OPTIONS: { template: 'Provider {provider} ({configPath}) has invalid options:\n{problems}' },
  TTS_PLUGIN_CREATE_FAILED: { template: 'Provider {provider} ({configPath}, plugin {plugin}) failed to start: {reason}' },
  TTS_PLUGIN_DUPLICATE_ID: { template: 'Provider id {provider} is used by both {first} and {configPath}: give each instance its own "id:"' },
  TTS_PLUGIN_MODEL_CLASH: {
    template:
      'Model {model} is offered by both provider {first} ({firstConfigPath}) and provider {provider} ({configPath}). ' +
      'Keep it on one of them with "models:" (the models to serve) or give one a new name with "rename:", ' +
      'for example under {configPath}: rename: { {providerModel}: {suggestion} }',
  },
  /** `config/config-error.ts` writes this shape itself (config does not depend on core). */
  TTS_CONFIG_INVALID: { template: '{summary}[ in {file}][:\n{problems}]' },
} as const;

export type StartErrorCode = keyof typeof START_ERROR_CATALOGUE;
