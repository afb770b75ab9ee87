/** Options of the espeak plugin, as a deployment writes them under `providers[].options`. */
import type { OptionsFromSchema, OptionsSchema } from '../../core';

export const DEFAULT_VOICE = 'en-us';

export const espeakOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    workers: {
      type: 'integer',
      minimum: 1,
      maximum: 256,
      description: 'The most worker threads that synthesize; they start on demand, one at first (default: the number of cores).',
    },
    defaultVoice: {
      type: 'string',
      minLength: 1,
      description: `eSpeak NG voiceId checked at start and used when a request names no voice (default: ${DEFAULT_VOICE}).`,
    },
    maxQueuedTasks: {
      type: 'integer',
      minimum: 1,
      maximum: 100000,
      description: 'Synthesis tasks that may wait for each thread; more are refused at once with 503 (default: 60).',
    },
  },
} as const satisfies OptionsSchema;

/** The options as `create()` receives them (read off the schema; each description says its default). */
export type EspeakOptions = OptionsFromSchema<typeof espeakOptionsSchema>;
