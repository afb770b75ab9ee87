import type { OptionsFromSchema, OptionsSchema } from '../../core';

/** Options of one `openai` provider instance; the type below is read off this schema. */
export const openAiOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['apiKey'],
  properties: {
    apiKey: { type: 'string', minLength: 1, description: 'OpenAI API key (for example ${OPENAI_API_KEY}).' },
    // `https://api.openai.com` by default; a trailing `/v1` is accepted and ignored.
    baseUrl: { type: 'string', pattern: '^https?://', default: 'https://api.openai.com' },
    // Sent as `OpenAI-Organization` when set.
    organization: { type: 'string', minLength: 1 },
    // Sent as `OpenAI-Project` when set.
    project: { type: 'string', minLength: 1 },
    // Style instructions for `gpt-4o-mini-tts` (the other models do not take them).
    instructions: { type: 'string', minLength: 1, maxLength: 4096 },
    timeoutMs: { type: 'integer', minimum: 1, maximum: 600000, default: 30000 },
  },
} as const satisfies OptionsSchema;

/** Options of one `openai` provider instance, after ajv has applied the defaults. */
export type OpenAiOptions = OptionsFromSchema<typeof openAiOptionsSchema>;
