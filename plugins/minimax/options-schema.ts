import type { OptionsSchema } from '../../core';

/** Options of one `minimax` provider instance, after ajv has applied the defaults. */
export interface MiniMaxOptions {
  readonly apiKey: string;
  /**
   * Older accounts' keys are bound to a group and the old API wanted `?GroupId=`; current keys
   * do not need it. Sent as the `GroupId` query parameter when set.
   */
  readonly groupId?: string;
  /** `https://api.minimax.io` (global); mainland China accounts use `https://api.minimaxi.com`. */
  readonly baseUrl: string;
  /** Sample rate asked for every format (MiniMax: 8000, 16000, 22050, 24000, 32000, 44100). */
  readonly sampleRate: number;
  readonly timeoutMs: number;
}

export const MINIMAX_SAMPLE_RATES = [8000, 16000, 22050, 24000, 32000, 44100] as const;

export const miniMaxOptionsSchema: OptionsSchema<MiniMaxOptions> = {
  type: 'object',
  additionalProperties: false,
  required: ['apiKey'],
  properties: {
    apiKey: { type: 'string', minLength: 1, description: 'MiniMax API key (for example ${MINIMAX_API_KEY}).' },
    groupId: { nullable: true, type: 'string', minLength: 1, description: 'GroupId, only for keys of the older group-bound API.' },
    baseUrl: { type: 'string', pattern: '^https?://', default: 'https://api.minimax.io' },
    sampleRate: { type: 'integer', enum: [...MINIMAX_SAMPLE_RATES], default: 32000 },
    timeoutMs: { type: 'integer', minimum: 1, maximum: 600000, default: 30000 },
  },
};
