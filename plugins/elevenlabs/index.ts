/**
 * The `elevenlabs` plugin: ElevenLabs text-to-speech (`POST /v1/text-to-speech/{voice_id}`),
 * models from `GET /v1/models`, the account's voices from `GET /v2/voices` (paged).
 */
import { definePlugin } from '../../core';
import { elevenLabsOptionsSchema, type ElevenLabsOptions } from './options-schema';
import { ElevenLabsProvider } from './provider';

export type { ElevenLabsOptions } from './options-schema';

export default definePlugin<ElevenLabsOptions>({
  id: 'elevenlabs',
  optionsSchema: elevenLabsOptionsSchema,
  create: (options, context) => new ElevenLabsProvider(options, context),
});
