/**
 * The one catalogue of coded errors. Each code has its HTTP status and whether a retry
 * (another attempt, another provider) can help. Nothing else decides status codes.
 */
export const ERROR_CATALOGUE = {
  TTS_ERR_VALIDATION: { status: 400, retryable: false },
  TTS_ERR_MALFORMED_JSON: { status: 400, retryable: false },
  TTS_ERR_UNAUTHORIZED: { status: 401, retryable: false },
  TTS_ERR_FORBIDDEN: { status: 403, retryable: false },
  TTS_ERR_MODEL_NOT_FOUND: { status: 404, retryable: false },
  TTS_ERR_VOICE_NOT_FOUND: { status: 404, retryable: false },
  TTS_ERR_NOT_FOUND: { status: 404, retryable: false },
  TTS_ERR_CONFLICT: { status: 409, retryable: false },
  TTS_ERR_PAYLOAD_TOO_LARGE: { status: 413, retryable: false },
  TTS_ERR_RANGE_NOT_SATISFIABLE: { status: 416, retryable: false },
  TTS_ERR_UNSUPPORTED_FORMAT: { status: 422, retryable: false },
  TTS_ERR_RATE_LIMITED: { status: 429, retryable: true },
  TTS_ERR_UPSTREAM: { status: 502, retryable: true },
  TTS_ERR_UPSTREAM_AUTH: { status: 502, retryable: false },
  /** The request is fine; the gateway's upstream account is out of credit or its billing stopped. */
  TTS_ERR_UPSTREAM_QUOTA: { status: 502, retryable: false },
  TTS_ERR_UPSTREAM_BAD_RESPONSE: { status: 502, retryable: true },
  TTS_ERR_UNAVAILABLE: { status: 503, retryable: true },
  TTS_ERR_TIMEOUT: { status: 504, retryable: true },
  TTS_ERR_CANCELLED: { status: 499, retryable: false },
  TTS_ERR_INTERNAL: { status: 500, retryable: false },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
