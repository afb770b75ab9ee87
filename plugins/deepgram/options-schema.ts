import type { OptionsFromSchema, OptionsSchema } from '../../core';

/** Options of one `deepgram` provider instance; the type below is read off this schema. */
export const deepgramOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['apiKey'],
  properties: {
    apiKey: { type: 'string', minLength: 1, description: 'Deepgram API key (for example ${DEEPGRAM_API_KEY}).' },
    // `https://api.deepgram.com` by default (self-hosted or EU endpoints differ).
    baseUrl: { type: 'string', pattern: '^https?://', default: 'https://api.deepgram.com' },
    timeoutMs: { type: 'integer', minimum: 1, maximum: 600000, default: 30000 },
  },
} as const satisfies OptionsSchema;

/** Options of one `deepgram` provider instance, after ajv has applied the defaults. */
export type DeepgramOptions = OptionsFromSchema<typeof deepgramOptionsSchema>;
