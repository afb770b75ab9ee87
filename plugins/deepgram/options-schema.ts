import type { OptionsSchema } from '../../core';

/** Options of one `deepgram` provider instance, after ajv has applied the defaults. */
export interface DeepgramOptions {
  readonly apiKey: string;
  /** `https://api.deepgram.com` by default (self-hosted or EU endpoints differ). */
  readonly baseUrl: string;
  readonly timeoutMs: number;
}

export const deepgramOptionsSchema: OptionsSchema<DeepgramOptions> = {
  type: 'object',
  additionalProperties: false,
  required: ['apiKey'],
  properties: {
    apiKey: { type: 'string', minLength: 1, description: 'Deepgram API key (for example ${DEEPGRAM_API_KEY}).' },
    baseUrl: { type: 'string', pattern: '^https?://', default: 'https://api.deepgram.com' },
    timeoutMs: { type: 'integer', minimum: 1, maximum: 600000, default: 30000 },
  },
};
