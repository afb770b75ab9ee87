import type { AudioFormat, ModelCapabilities, ProviderSynthesisRequest } from '../../core';
import { notNativeFormat } from './errors';

/** The gateway's formats in Google's `audioEncoding` terms (LINEAR16 comes with a WAV header). */
export const AUDIO_ENCODINGS: Readonly<Partial<Record<AudioFormat, string>>> = {
  wav: 'LINEAR16',
  mp3: 'MP3',
  opus: 'OGG_OPUS',
};

/** `audioConfig` of `text:synthesize`, minus the encoding. */
export interface GoogleProsody {
  speakingRate?: number;
  pitch?: number;
  volumeGainDb?: number;
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));

/** One row per multiplier: the field it sets and how the multiplier becomes Google's unit. */
const MAPPING = [
  { name: 'speed', field: 'speakingRate', transform: (speed: number) => round(speed, 4) },
  { name: 'pitch', field: 'pitch', transform: (pitch: number) => round(12 * Math.log2(pitch), 2) },
  { name: 'volume', field: 'volumeGainDb', transform: (volume: number) => round(20 * Math.log10(volume), 2) },
] as const;

/**
 * Maps the multipliers the planner left to Google. A field is sent only when its multiplier is
 * present: some families reject `pitch` or `speakingRate` even at their neutral values.
 */
export function mapProsody(request: ProviderSynthesisRequest, capabilities: ModelCapabilities): { prosody: GoogleProsody; warnings: string[] } {
  const prosody: GoogleProsody = {};
  const warnings: string[] = [];
  for (const row of MAPPING) {
    const value = request[row.name];
    if (value === undefined || value === 1) continue;
    const range = capabilities[row.name];
    if (!range || value < range.min || value > range.max) {
      warnings.push(`${row.name} ${value} is not native for ${request.model}; not applied by Google`);
      continue;
    }
    prosody[row.field] = row.transform(value);
  }
  return { prosody, warnings };
}

/** The body of `POST /v1/text:synthesize`. */
export interface GoogleSynthesisBody {
  readonly input: { readonly text: string };
  readonly voice: { readonly languageCode: string; readonly name: string };
  readonly audioConfig: GoogleProsody & { readonly audioEncoding: string };
}

/**
 * The whole call: plain `input.text` (no SSML, which Chirp voices do not take), the voice by name
 * with its locale, the format as `audioEncoding` and the native prosody fields.
 */
export function buildSynthesisBody(
  request: ProviderSynthesisRequest,
  locale: string,
  capabilities: ModelCapabilities,
): { body: GoogleSynthesisBody; warnings: string[] } {
  const audioEncoding = AUDIO_ENCODINGS[request.format];
  if (!audioEncoding) throw notNativeFormat(request.format);
  const { prosody, warnings } = mapProsody(request, capabilities);
  return { body: { input: { text: request.text }, voice: { languageCode: locale, name: request.voice }, audioConfig: { audioEncoding, ...prosody } }, warnings };
}
