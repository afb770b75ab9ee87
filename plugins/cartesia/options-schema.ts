import type { OptionsFromSchema, OptionsSchema } from '../../core';

export const CARTESIA_SAMPLE_RATES = [8000, 16000, 22050, 24000, 44100, 48000] as const;

/** Options of one `cartesia` provider instance; the type below is read off this schema. */
export const cartesiaOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['apiKey'],
  properties: {
    apiKey: { type: 'string', minLength: 1, description: 'Cartesia API key (for example ${CARTESIA_API_KEY}).' },
    baseUrl: { type: 'string', pattern: '^https?://', default: 'https://api.cartesia.ai' },
    // The `Cartesia-Version` header: the dated API version the plugin was built against.
    version: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', default: '2026-03-01' },
    // Output sample rate for every format.
    sampleRate: { type: 'integer', enum: [...CARTESIA_SAMPLE_RATES], default: 44100 },
    // `language` sent with every request (for example `en`, `de`); omitted when unset.
    language: { type: 'string', pattern: '^[a-z]{2,3}$' },
    timeoutMs: { type: 'integer', minimum: 1, maximum: 600000, default: 30000 },
  },
} as const satisfies OptionsSchema;

/** Options of one `cartesia` provider instance, after ajv has applied the defaults. */
export type CartesiaOptions = OptionsFromSchema<typeof cartesiaOptionsSchema>;
