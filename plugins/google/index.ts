import { definePlugin } from '../../core';
import { GoogleProvider } from './provider';
import { googleOptionsSchema, type GoogleOptions } from './options-schema';

/** Google Cloud Text-to-Speech: one model per voice family (`google-wavenet`, `google-chirp3-hd`, ...). */
export default definePlugin<GoogleOptions>({
  id: 'google',
  optionsSchema: googleOptionsSchema,
  create: (options, context) => GoogleProvider.create(options, context.fetch),
});

export type { GoogleOptions } from './options-schema';
export { GOOGLE_FAMILIES } from './models';
