import type { SchemaObject } from 'ajv';
import { ERROR_CATALOGUE, type ErrorCode } from '../../core';

/** The spec-side error body (README "Errors"): the success envelope's fields with a coded error. */
export const ERROR_ENVELOPE_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['success', 'message', 'timestamp', 'data', 'error'],
  properties: {
    success: { const: false },
    message: { type: 'string', description: 'For people; never a key, a password, the text or a stack trace' },
    timestamp: { type: 'integer', description: 'Unix milliseconds' },
    data: { type: 'null' },
    error: {
      type: 'object',
      additionalProperties: false,
      required: ['code', 'details'],
      properties: {
        code: { enum: Object.keys(ERROR_CATALOGUE) },
        details: {
          type: 'array',
          description: 'The field and reason of an input error; the provider, its status and its message for an upstream error',
          items: { type: 'object', required: ['reason'], properties: { field: { type: 'string' }, reason: { type: 'string' } } },
        },
      },
    },
  },
};

/** OpenAI's error body, answered on `/v1` so that the OpenAI SDKs raise their typed errors. */
export const OPENAI_ERROR_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['message', 'type', 'param', 'code'],
      properties: {
        message: { type: 'string' },
        type: { type: 'string', examples: ['invalid_request_error'] },
        param: { type: ['string', 'null'] },
        code: { type: ['string', 'null'] },
      },
    },
  },
};

/** A sample message per code, for the examples of the docs page. */
export const ERROR_EXAMPLE_MESSAGES: Readonly<Record<ErrorCode, string>> = {
  TTS_ERR_VALIDATION: 'speed must be between 0.5 and 2.0',
  TTS_ERR_MALFORMED_JSON: 'Request body is not valid JSON',
  TTS_ERR_UNAUTHORIZED: 'A valid API key is required (X-API-Key, or Authorization: Bearer)',
  TTS_ERR_FORBIDDEN: 'Registration is closed on this gateway',
  TTS_ERR_MODEL_NOT_FOUND: 'Model "tts-9" is not available; the model list names the available models',
  TTS_ERR_VOICE_NOT_FOUND: 'Voice "nobody" is not available for model "espeak-ng"; the voice list of the model names its voices',
  TTS_ERR_NOT_FOUND: 'No such audio file',
  TTS_ERR_REQUEST_TIMEOUT: 'The request did not arrive within the time the gateway allows',
  TTS_ERR_CONFLICT: 'An account with this email already exists',
  TTS_ERR_PAYLOAD_TOO_LARGE: 'Request body is larger than the limit of 262144 bytes',
  TTS_ERR_AUDIO_TOO_LONG: 'The audio would be longer than the limit of 30 min: the synthesis was stopped',
  TTS_ERR_PRECONDITION_FAILED: "The file does not meet the request's If-Match condition",
  TTS_ERR_RANGE_NOT_SATISFIABLE: 'The requested range is outside the file',
  TTS_ERR_UNSUPPORTED_FORMAT: 'Format aac cannot be produced for this request',
  TTS_ERR_RATE_LIMITED: 'The provider is rate limiting requests; retry later',
  TTS_ERR_HEADERS_TOO_LARGE: 'The request headers are larger than the limit of 16384 bytes',
  TTS_ERR_UPSTREAM: 'The provider answered with an error',
  TTS_ERR_UPSTREAM_AUTH: 'The provider refused the gateway credentials',
  TTS_ERR_UPSTREAM_QUOTA: "The provider account is out of credit; the operator must top it up",
  TTS_ERR_UPSTREAM_BAD_RESPONSE: 'The provider answer is not audio',
  TTS_ERR_UNAVAILABLE: 'The provider cannot be reached',
  TTS_ERR_TIMEOUT: 'The synthesis did not finish within 60 s',
  TTS_ERR_STORAGE_FULL: "The gateway's audio storage has no room for this audio: its disk is full",
  TTS_ERR_CANCELLED: 'The client went away',
  TTS_ERR_INTERNAL: 'Internal server error',
};
