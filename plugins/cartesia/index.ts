/**
 * The `cartesia` plugin: Cartesia Sonic over `POST /tts/bytes` (mp3, wav, raw PCM) with the
 * account's voice library from the paged `GET /voices`.
 */
import { definePlugin } from '../../core';
import { cartesiaOptionsSchema, type CartesiaOptions } from './options-schema';
import { CartesiaProvider } from './provider';

export type { CartesiaOptions } from './options-schema';

export default definePlugin<CartesiaOptions>({
  id: 'cartesia',
  optionsSchema: cartesiaOptionsSchema,
  create: (options, context) => new CartesiaProvider(options, context),
});
