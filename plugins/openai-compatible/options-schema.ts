import type { AudioFormat, NumberRange, OptionsSchema } from '../../core';

/** A voice written in the configuration, for servers without a voice list endpoint. */
export interface ConfiguredVoice {
  readonly id: string;
  readonly name?: string;
  readonly language?: string;
  readonly gender?: 'Male' | 'Female' | 'Unknown';
  readonly description?: string;
}

/** Options of one `openai-compatible` provider instance, after ajv has applied the defaults. */
export interface OpenAiCompatibleOptions {
  /** The server's root, for example `http://kokoro:8880` (a trailing `/v1` is accepted). */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer` when set; most self-hosted servers need none. */
  readonly apiKey?: string;
  readonly timeoutMs: number;
  /** The server's model ids to serve; when absent they come from `GET /v1/models`. */
  readonly models?: readonly string[];
  /** Case-insensitive pattern that picks speech models out of `GET /v1/models`. */
  readonly modelPattern: string;
  /** Put before every model name (`kokoro` makes `tts-1` into `kokoro-tts-1`). */
  readonly modelPrefix?: string;
  /** Voices to offer; when absent they come from `GET /v1/audio/voices`. */
  readonly voices?: readonly (string | ConfiguredVoice)[];
  /** Language of voices whose language is not known otherwise (BCP 47). */
  readonly voiceLanguage: string;
  /** `response_format` values the server really produces. */
  readonly formats: readonly AudioFormat[];
  /** Rate of the server's `pcm` output. */
  readonly pcmSampleRate: number;
  /** Whether the server honours `speed`; when false the gateway's DSP does it. */
  readonly nativeSpeed: boolean;
  readonly speedRange: NumberRange;
  readonly maxInputChars: number;
}

const SAFE_NAME = '^[A-Za-z0-9][A-Za-z0-9._-]*$';
const LANGUAGE_TAG = '^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$';

export const openAiCompatibleOptionsSchema: OptionsSchema<OpenAiCompatibleOptions> = {
  type: 'object',
  additionalProperties: false,
  required: ['baseUrl'],
  properties: {
    baseUrl: { type: 'string', pattern: '^https?://', description: 'Root URL of the OpenAI-compatible server.' },
    apiKey: { nullable: true, type: 'string', minLength: 1 },
    timeoutMs: { type: 'integer', minimum: 1, maximum: 600000, default: 30000 },
    models: { nullable: true, type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', minLength: 1 } },
    modelPattern: { type: 'string', minLength: 1, default: 'tts|speech|kokoro|piper|voice' },
    modelPrefix: { nullable: true, type: 'string', pattern: SAFE_NAME },
    voices: {
      nullable: true,
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
              name: { nullable: true, type: 'string' },
              language: { nullable: true, type: 'string', pattern: LANGUAGE_TAG },
              gender: { nullable: true, type: 'string', enum: ['Male', 'Female', 'Unknown'] },
              description: { nullable: true, type: 'string' },
            },
          },
        ],
      },
    },
    voiceLanguage: { type: 'string', pattern: LANGUAGE_TAG, default: 'en' },
    formats: {
      type: 'array',
      minItems: 1,
      uniqueItems: true,
      items: { type: 'string', enum: ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] },
      default: ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'],
    },
    pcmSampleRate: { type: 'integer', minimum: 8000, maximum: 192000, default: 24000 },
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
};
