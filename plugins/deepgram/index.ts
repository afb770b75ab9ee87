/**
 * The `deepgram` plugin: Deepgram Aura over REST (`POST /v1/speak`). Models are the Aura
 * families (`aura-2`, `aura`); voices are Deepgram's voice model ids (`aura-2-thalia-en`).
 */
import { definePlugin } from '../../core';
import { deepgramOptionsSchema, type DeepgramOptions } from './options-schema';
import { DeepgramProvider } from './provider';

export type { DeepgramOptions } from './options-schema';

export default definePlugin<DeepgramOptions>({
  id: 'deepgram',
  optionsSchema: deepgramOptionsSchema,
  create: (options, context) => new DeepgramProvider(options, context),
});
