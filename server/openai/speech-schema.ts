import type { SchemaObject } from 'ajv';
import { AUDIO_FORMATS, MULTIPLIER_RANGE, type AudioFormat } from '../../core';

const name = { type: 'string', minLength: 1, maxLength: 200 };
/** The gateway's one range for speed, pitch and volume multipliers. */
const multiplier = { type: 'number', minimum: MULTIPLIER_RANGE.min, maximum: MULTIPLIER_RANGE.max, default: 1.0 };

/**
 * POST /v1/audio/speech: OpenAI's body, plus the gateway's `pitch` and `volume` as documented
 * extensions. `input` length and blankness are checked by `checkSynthesisText`.
 */
export const SPEECH_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['model', 'input', 'voice'],
  properties: {
    model: name,
    input: { type: 'string' },
    // The current SDKs also send a voice as `{ "id": "..." }`. One schema for both forms, not an
    // anyOf: a wrong object is then told what is wrong with it, not that it is not a string.
    voice: { type: ['string', 'object'], minLength: 1, maxLength: 200, additionalProperties: false, required: ['id'], properties: { id: name } },
    response_format: { type: 'string', enum: [...AUDIO_FORMATS], default: 'mp3' },
    speed: { type: 'number', minimum: 0.25, maximum: 4.0, default: 1.0 },
    instructions: { type: 'string', maxLength: 4096 },
    stream_format: { type: 'string', enum: ['audio', 'sse'], default: 'audio' },
    pitch: multiplier,
    volume: multiplier,
  },
};

/**
 * The Content-Type of each format on `/v1`: pcm is `audio/pcm`, as OpenAI-compatible servers
 * answer it (`audio/L16` names big-endian samples, RFC 2586; these are little-endian); Ogg Opus
 * is `audio/ogg` (RFC 7845).
 */
export const OPENAI_CONTENT_TYPES: Readonly<Record<AudioFormat, string>> = {
  mp3: 'audio/mpeg',
  opus: 'audio/ogg; codecs=opus',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};

/** A body that passed SPEECH_SCHEMA, defaults filled in. */
export interface SpeechBody {
  readonly model: string;
  readonly input: string;
  readonly voice: string | { readonly id: string };
  readonly response_format: (typeof AUDIO_FORMATS)[number];
  readonly speed: number;
  readonly instructions?: string;
  readonly stream_format: 'audio' | 'sse';
  readonly pitch: number;
  readonly volume: number;
}
