import type { SchemaObject } from 'ajv';
import { CONTENT_TYPES } from '../../core';

/**
 * JSON Schemas of the answers, for the OpenAPI document. A test checks real answers of every
 * route against them (test/server/api-contract.test.ts), so they stay true.
 */

/** The spec's success envelope (section 2.1) around `data`. */
export function successEnvelopeSchema(data: SchemaObject, message: string): SchemaObject {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['success', 'message', 'timestamp', 'data'],
    properties: {
      success: { const: true },
      message: { type: 'string', examples: [message] },
      timestamp: { type: 'integer', description: 'Unix milliseconds' },
      data,
    },
  };
}

const unixMilliseconds = { type: 'integer', description: 'Unix milliseconds' };

const ACCOUNT_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'email'],
  properties: { id: { type: 'string', format: 'uuid' }, email: { type: 'string', format: 'email' } },
};

export const ISSUED_ACCOUNT_KEY_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['account', 'apiKey', 'keyId', 'expiresAt'],
  properties: {
    account: ACCOUNT_SCHEMA,
    apiKey: { type: 'string', pattern: '^ttsg_[A-Za-z0-9_-]{43}$', description: 'The new key; shown only in this answer' },
    keyId: { type: 'string', format: 'uuid' },
    expiresAt: { type: ['integer', 'null'], description: 'Unix milliseconds when the key stops working (login keys: `auth.loginKeyTtl`); null = never' },
  },
};

const keySummaryProperties = {
  id: { type: 'string', format: 'uuid' },
  name: { type: 'string' },
  prefix: { type: 'string', description: 'The first characters of the key, to tell keys apart' },
  createdAt: unixMilliseconds,
  lastUsedAt: { type: ['integer', 'null'], description: 'Unix milliseconds; null when never used' },
  expiresAt: { type: ['integer', 'null'], description: 'Unix milliseconds when the key stops working; null = never' },
};

export const KEY_LIST_SCHEMA: SchemaObject = {
  type: 'array',
  description: 'Live keys only, oldest first; never the keys themselves',
  items: { type: 'object', additionalProperties: false, required: Object.keys(keySummaryProperties), properties: keySummaryProperties },
};

export const ISSUED_KEY_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: [...Object.keys(keySummaryProperties), 'apiKey'],
  properties: { ...keySummaryProperties, apiKey: ISSUED_ACCOUNT_KEY_SCHEMA.properties.apiKey },
};

export const REVOKED_KEY_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'revoked'],
  properties: { id: { type: 'string' }, revoked: { const: true } },
};

const usageTotalsProperties = {
  requests: { type: 'integer', minimum: 0, description: 'Synthesis requests answered, successful or not' },
  characters: { type: 'integer', minimum: 0, description: 'Characters (code points) of the successful ones' },
  audioSeconds: { type: 'number', minimum: 0 },
  cacheHits: { type: 'integer', minimum: 0 },
  errors: { type: 'integer', minimum: 0 },
};
const usageTotals = (extra: Record<string, SchemaObject> = {}): SchemaObject => ({
  type: 'object',
  additionalProperties: false,
  required: [...Object.keys(extra), ...Object.keys(usageTotalsProperties)],
  properties: { ...extra, ...usageTotalsProperties },
});

export const USAGE_REPORT_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['from', 'to', 'totals', 'byModel', 'byDay'],
  properties: {
    from: { type: 'string', format: 'date', description: 'First UTC day, inclusive' },
    to: { type: 'string', format: 'date', description: 'Last UTC day, inclusive' },
    totals: usageTotals(),
    byModel: { type: 'array', items: usageTotals({ model: { type: 'string' } }) },
    byDay: { type: 'array', items: usageTotals({ date: { type: 'string', format: 'date' } }) },
  },
};

export const SYNTHESIS_RESULT_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['request_id', 'audio_url', 'file_size'],
  properties: {
    request_id: { type: 'string', description: 'Equals the X-Request-Id header' },
    audio_url: { type: 'string', format: 'uri', description: '{base}/api/v1/audio/download/<name>.<extension>; the link is the credential' },
    file_size: { type: 'integer', minimum: 0, description: 'Bytes' },
  },
};

export const MODEL_LIST_SCHEMA: SchemaObject = {
  type: 'array',
  description: 'Model names, sorted by provider, then by name',
  items: { type: 'string' },
};

export const VOICE_LIST_SCHEMA: SchemaObject = {
  type: 'array',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['voiceId', 'voiceName', 'language', 'gender', 'description'],
    properties: {
      voiceId: { type: 'string', description: 'The `voice` of a synthesis request' },
      voiceName: { type: 'string' },
      language: { type: 'string', description: 'BCP 47 language tag' },
      gender: { enum: ['Male', 'Female', 'Unknown'] },
      description: { type: 'string' },
    },
  },
};

/** Bytes of any format the gateway stores, by its Content-Type. */
export const AUDIO_MEDIA_TYPES: readonly string[] = [...new Set(Object.values(CONTENT_TYPES))];

export const BINARY_SCHEMA: SchemaObject = { type: 'string', contentMediaType: 'application/octet-stream' };

const checkSchema: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['status'],
  properties: { status: { enum: ['ok', 'failed'] }, error: { type: 'string' } },
};

export const LIVENESS_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['status'],
  properties: { status: { const: 'ok' } },
};

export const READINESS_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['status', 'checks', 'providers'],
  properties: {
    status: { enum: ['ready', 'not ready'], description: '`ready` (200) or `not ready` (503)' },
    checks: {
      type: 'object',
      additionalProperties: false,
      required: ['database', 'audioStore', 'startup', 'shutdown'],
      properties: {
        database: checkSchema,
        audioStore: checkSchema,
        startup: { ...checkSchema, description: '`failed` (`warming up`) while the providers still warm up, right after the start' },
        shutdown: { ...checkSchema, description: '`failed` once the gateway is draining for a stop' },
      },
    },
    providers: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'status', 'models'],
        properties: {
          id: { type: 'string', description: 'Provider instance id' },
          status: { enum: ['ready', 'unavailable'] },
          models: { type: 'integer', minimum: 0, description: 'Models it serves' },
          lastError: { type: 'string', description: 'The last failure, safe to show (no credentials)' },
          lastErrorAt: unixMilliseconds,
        },
      },
    },
  },
};
