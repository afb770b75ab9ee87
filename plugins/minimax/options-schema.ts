import type { OptionsFromSchema, OptionsSchema } from '../../core';

export const MINIMAX_SAMPLE_RATES = [8000, 16000, 22050, 24000, 32000, 44100] as const;

/** Options of one `minimax` provider instance; the type below is read off this schema. */
export const miniMaxOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['apiKey'],
  properties: {
    apiKey: { type: 'string', minLength: 1, description: 'MiniMax API key (for example ${MINIMAX_API_KEY}).' },
    // Older accounts' keys are bound to a group and the old API wanted `?GroupId=`; current keys
    // do not need it. Sent as the `GroupId` query parameter when set.
    groupId: { type: 'string', minLength: 1, description: 'GroupId, only for keys of the older group-bound API.' },
    // `https://api.minimax.io` (global); mainland China accounts use `https://api.minimaxi.com`.
    baseUrl: { type: 'string', pattern: '^https?://', default: 'https://api.minimax.io' },
    // Sample rate asked for every format.
    sampleRate: { type: 'integer', enum: [...MINIMAX_SAMPLE_RATES], default: 32000 },
    timeoutMs: { type: 'integer', minimum: 1, maximum: 600000, default: 30000 },
  },
} as const satisfies OptionsSchema;

/** Options of one `minimax` provider instance, after ajv has applied the defaults. */
export type MiniMaxOptions = OptionsFromSchema<typeof miniMaxOptionsSchema>;
