import type { OptionsFromSchema, OptionsSchema } from '../../core';

export const GOOGLE_DEFAULT_BASE_URL = 'https://texttospeech.googleapis.com';

/** Options of one Google Cloud Text-to-Speech instance; the type below is read off this schema. */
export const googleOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['apiKey'],
  properties: {
    // API key of a Google Cloud project with the Text-to-Speech API enabled.
    apiKey: { type: 'string', minLength: 1, description: 'Google Cloud API key, sent as X-Goog-Api-Key (usually ${GOOGLE_TTS_API_KEY})' },
    baseUrl: { type: 'string', pattern: '^https?://', default: GOOGLE_DEFAULT_BASE_URL },
    timeoutMs: { type: 'integer', minimum: 1, default: 30_000 },
  },
} as const satisfies OptionsSchema;

/** Options of one Google Cloud Text-to-Speech instance, after ajv has applied the defaults. */
export type GoogleOptions = OptionsFromSchema<typeof googleOptionsSchema>;
