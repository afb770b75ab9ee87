import type { OptionsFromSchema, OptionsSchema } from '../../core';

const SAFE_NAME = '^[A-Za-z0-9][A-Za-z0-9._-]*$';
const LANGUAGE_TAG = '^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$';

/** Options of one `openai-compatible` provider instance; the types below are read off this schema. */
export const openAiCompatibleOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['baseUrl'],
  properties: {
    // The server's root, for example `http://kokoro:8880` (a trailing `/v1` is accepted).
    baseUrl: { type: 'string', pattern: '^https?://', description: 'Root URL of the OpenAI-compatible server.' },
    // Sent as `Authorization: Bearer` when set; most self-hosted servers need none.
    apiKey: { type: 'string', minLength: 1 },
    timeoutMs: { type: 'integer', minimum: 1, maximum: 600000, default: 30000 },
    // The server's model ids to serve; when absent they come from `GET /v1/models`.
    models: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', minLength: 1 } },
    // Case-insensitive pattern that picks speech models out of `GET /v1/models`.
    modelPattern: { type: 'string', minLength: 1, default: 'tts|speech|kokoro|piper|voice' },
    // Put before every model name (`kokoro` makes `tts-1` into `kokoro-tts-1`).
    modelPrefix: { type: 'string', pattern: SAFE_NAME },
    // Voices to offer; when absent they come from `GET /v1/audio/voices`.
    voices: {
      type: 'array',
      minItems: 1,
      items: {
        anyOf: [
          { type: 'string', minLength: 1 },
          {
            type: 'object',
            additionalProperties: false,
            required: ['id'],
            properties: {
              id: { type: 'string', minLength: 1 },
              name: { type: 'string' },
              language: { type: 'string', pattern: LANGUAGE_TAG },
              gender: { type: 'string', enum: ['Male', 'Female', 'Unknown'] },
              description: { type: 'string' },
            },
          },
        ],
      },
    },
    // Language of voices whose language is not known otherwise (BCP 47).
    voiceLanguage: { type: 'string', pattern: LANGUAGE_TAG, default: 'en' },
    // `response_format` values the server really produces.
    formats: {
      type: 'array',
      minItems: 1,
      uniqueItems: true,
      items: { type: 'string', enum: ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] },
      default: ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'],
    },
    // Rate of the server's `pcm` output.
    pcmSampleRate: { type: 'integer', minimum: 8000, maximum: 192000, default: 24000 },
    // Whether the server honours `speed`; when false the gateway's DSP does it.
    nativeSpeed: { type: 'boolean', default: true },
    speedRange: {
      type: 'object',
      additionalProperties: false,
      required: ['min', 'max'],
      properties: { min: { type: 'number', exclusiveMinimum: 0, maximum: 1 }, max: { type: 'number', minimum: 1 } },
      default: { min: 0.25, max: 4 },
    },
    maxInputChars: { type: 'integer', minimum: 1, default: 4096 },
  },
} as const satisfies OptionsSchema;

/** Options of one `openai-compatible` provider instance, after ajv has applied the defaults. */
export type OpenAiCompatibleOptions = OptionsFromSchema<typeof openAiCompatibleOptionsSchema>;

/** A voice written in the configuration, for servers without a voice list endpoint. */
export type ConfiguredVoice = Exclude<NonNullable<OpenAiCompatibleOptions['voices']>[number], string>;
