/**
 * The `openai-compatible` plugin: any self-hosted server that speaks OpenAI's
 * `POST /v1/audio/speech` (Kokoro-FastAPI, LocalAI, openedai-speech, ...), with its models
 * from `GET /v1/models` and its voices from `GET /v1/audio/voices` or the configuration.
 */
import { definePlugin } from '../../core';
import { openAiCompatibleOptionsSchema, type OpenAiCompatibleOptions } from './options-schema';
import { OpenAiCompatibleProvider } from './provider';

export type { ConfiguredVoice, OpenAiCompatibleOptions } from './options-schema';

export default definePlugin<OpenAiCompatibleOptions>({
  id: 'openai-compatible',
  optionsSchema: openAiCompatibleOptionsSchema,
  create: (options, context) => new OpenAiCompatibleProvider(options, context),
});
