/** Options of the espeak plugin, as a deployment writes them under `providers[].options`. */
import type { OptionsSchema } from '../../core';

export interface EspeakOptions {
  /** The most worker threads that synthesize (started on demand, one at first); defaults to the number of cores. */
  readonly workers?: number;
  /** Voice checked at start and used when a request names no voice; defaults to `en-us`. */
  readonly defaultVoice?: string;
  /** Synthesis tasks that may wait for each thread; more are refused at once (503). Default: 60. */
  readonly maxQueuedTasks?: number;
}

export const DEFAULT_VOICE = 'en-us';

export const espeakOptionsSchema: OptionsSchema<EspeakOptions> = {
  type: 'object',
  additionalProperties: false,
  properties: {
    workers: {
      nullable: true,
      type: 'integer',
      minimum: 1,
      maximum: 256,
      description: 'The most worker threads that synthesize; they start on demand, one at first (default: the number of cores).',
    },
    defaultVoice: {
      nullable: true,
      type: 'string',
      minLength: 1,
      description: `eSpeak NG voiceId checked at start and used when a request names no voice (default: ${DEFAULT_VOICE}).`,
    },
    maxQueuedTasks: {
      nullable: true,
      type: 'integer',
      minimum: 1,
      maximum: 100000,
      description: 'Synthesis tasks that may wait for each thread; more are refused at once with 503 (default: 60).',
    },
  },
};
