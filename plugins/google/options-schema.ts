import type { OptionsSchema } from '../../core';

/** Options of one Google Cloud Text-to-Speech instance (validated by the schema below). */
export interface GoogleOptions {
  /** API key of a Google Cloud project with the Text-to-Speech API enabled. */
  readonly apiKey: string;
  readonly baseUrl: string;
  readonly timeoutMs: number;
}

export const GOOGLE_DEFAULT_BASE_URL = 'https://texttospeech.googleapis.com';

export const googleOptionsSchema: OptionsSchema<GoogleOptions> = {
  type: 'object',
  additionalProperties: false,
  required: ['apiKey'],
  properties: {
    apiKey: { type: 'string', minLength: 1, description: 'Google Cloud API key, sent as X-Goog-Api-Key (usually ${GOOGLE_TTS_API_KEY})' },
    baseUrl: { type: 'string', pattern: '^https?://', default: GOOGLE_DEFAULT_BASE_URL },
    timeoutMs: { type: 'integer', minimum: 1, default: 30_000 },
  },
};
