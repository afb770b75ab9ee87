import type { OptionsFromSchema, OptionsSchema } from '../../core';

/** The `pcm_*` sample rates ElevenLabs offers (44.1 kHz needs a Pro plan). */
export const ELEVENLABS_PCM_RATES = [8000, 16000, 22050, 24000, 32000, 44100, 48000] as const;

/** The `mp3_*` output formats ElevenLabs offers (192 kbit/s needs a Creator plan). */
export const ELEVENLABS_MP3_FORMATS = ['mp3_22050_32', 'mp3_24000_48', 'mp3_44100_32', 'mp3_44100_64', 'mp3_44100_96', 'mp3_44100_128', 'mp3_44100_192'] as const;

/** Options of one `elevenlabs` provider instance; the type below is read off this schema. */
export const elevenLabsOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['apiKey'],
  properties: {
    apiKey: { type: 'string', minLength: 1, description: 'ElevenLabs API key (for example ${ELEVENLABS_API_KEY}).' },
    baseUrl: { type: 'string', pattern: '^https?://', default: 'https://api.elevenlabs.io' },
    timeoutMs: { type: 'integer', minimum: 1, maximum: 600000, default: 30000 },
    // Model ids to serve; when absent they come from `GET /v1/models`.
    models: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' } },
    // `output_format` used when mp3 is asked for.
    mp3OutputFormat: { type: 'string', enum: [...ELEVENLABS_MP3_FORMATS], default: 'mp3_44100_128' },
    // Sample rate of `pcm_*` output, which the gateway also wraps into WAV.
    pcmSampleRate: { type: 'integer', enum: [...ELEVENLABS_PCM_RATES], default: 24000 },
    // Page size of `GET /v2/voices` (ElevenLabs allows at most 100).
    voicePageSize: { type: 'integer', minimum: 1, maximum: 100, default: 100 },
  },
} as const satisfies OptionsSchema;

/** Options of one `elevenlabs` provider instance, after ajv has applied the defaults. */
export type ElevenLabsOptions = OptionsFromSchema<typeof elevenLabsOptionsSchema>;
