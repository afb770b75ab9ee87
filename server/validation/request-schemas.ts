import type { SchemaObject } from 'ajv';
import { AUDIO_FORMATS, MULTIPLIER_RANGE } from '../../core';

/** The gateway's one range for speed, pitch and volume multipliers. */
const multiplier = { type: 'number', minimum: MULTIPLIER_RANGE.min, maximum: MULTIPLIER_RANGE.max, default: 1.0 };

/** POST /api/v1/common/tts-sync. `text` length and blankness are checked by `checkSynthesisText`. */
export const TTS_SYNC_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['model', 'text', 'voice'],
  properties: {
    model: { type: 'string', minLength: 1, maxLength: 200 },
    text: { type: 'string' },
    voice: { type: 'string', minLength: 1, maxLength: 200 },
    speed: multiplier,
    pitch: multiplier,
    volume: multiplier,
    format: { type: 'string', enum: [...AUDIO_FORMATS], default: 'mp3' },
  },
};

/** Shapes only; AccountService applies the email and password rules. */
const CREDENTIALS_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['email', 'password'],
  properties: {
    email: { type: 'string', minLength: 3, maxLength: 254, format: 'email' },
    password: { type: 'string', minLength: 1, maxLength: 1024 },
  },
};

export const REGISTER_SCHEMA: SchemaObject = CREDENTIALS_SCHEMA;

/** Login checks no format, so that every failure reads the same 401. */
export const LOGIN_SCHEMA: SchemaObject = {
  ...CREDENTIALS_SCHEMA,
  properties: { email: { type: 'string', maxLength: 254 }, password: { type: 'string', maxLength: 1024 } },
};

export const CREATE_KEY_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    /** Lifetime in seconds, a minute to ten years; absent = until revoked. */
    expiresIn: { type: 'integer', minimum: 60, maximum: 10 * 366 * 86_400 },
  },
};
