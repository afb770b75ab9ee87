import type { OptionsSchema } from '../../core';

/** Options of one `openai` provider instance, after ajv has applied the defaults. */
export interface OpenAiOptions {
  readonly apiKey: string;
  /** `https://api.openai.com` by default; a trailing `/v1` is accepted and ignored. */
  readonly baseUrl: string;
  /** Sent as `OpenAI-Organization` when set. */
  readonly organization?: string;
  /** Sent as `OpenAI-Project` when set. */
  readonly project?: string;
  /** Style instructions for `gpt-4o-mini-tts` (the other models do not take them). */
  readonly instructions?: string;
  readonly timeoutMs: number;
}

export const openAiOptionsSchema: OptionsSchema<OpenAiOptions> = {
  type: 'object',
  additionalProperties: false,
  required: ['apiKey'],
  properties: {
    apiKey: { type: 'string', minLength: 1, description: 'OpenAI API key (for example ${OPENAI_API_KEY}).' },
    baseUrl: { type: 'string', pattern: '^https?://', default: 'https://api.openai.com' },
    organization: { nullable: true, type: 'string', minLength: 1 },
    project: { nullable: true, type: 'string', minLength: 1 },
    instructions: { nullable: true, type: 'string', minLength: 1, maxLength: 4096 },
    timeoutMs: { type: 'integer', minimum: 1, maximum: 600000, default: 30000 },
  },
};
