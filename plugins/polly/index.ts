import { definePlugin } from '../../core';
import { pollyOptionsSchema, type PollyOptions } from './options-schema';
import { PollyProvider } from './provider';

/** Amazon Polly: one model per engine (`polly-standard`, `polly-neural`, `polly-long-form`, `polly-generative`). */
export default definePlugin<PollyOptions>({
  id: 'polly',
  optionsSchema: pollyOptionsSchema,
  create: (options, context) => PollyProvider.create(options, context.fetch),
});

export type { PollyOptions } from './options-schema';
export { POLLY_ENGINES } from './models';
