/**
 * The `openai` plugin: OpenAI's speech endpoint (`POST /v1/audio/speech`) with the fixed
 * models tts-1, tts-1-hd and gpt-4o-mini-tts and OpenAI's built-in voices.
 */
import { definePlugin } from '../../core';
import { openAiOptionsSchema, type OpenAiOptions } from './options-schema';
import { OpenAiProvider } from './provider';

export type { OpenAiOptions } from './options-schema';

export default definePlugin<OpenAiOptions>({
  id: 'openai',
  optionsSchema: openAiOptionsSchema,
  create: (options, context) => new OpenAiProvider(options, context),
});
