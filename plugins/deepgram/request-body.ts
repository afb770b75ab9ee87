import type { AudioFormat } from '../../core';

/**
 * The parameter mapping of `POST /v1/speak`: the format and rate travel in the query, the text
 * alone in the JSON body. No speed: see models.ts.
 */

/** Deepgram's query parameters for one gateway format, and the rate the bytes come at. */
interface SpeakFormat {
  readonly query: Readonly<Record<string, string>>;
  readonly sampleRate: number;
}

/** Raw and WAV linear16: Deepgram's REST default rate, 24 kHz. */
const LINEAR16_RATE = 24000;

/**
 * Deepgram's "audio format combinations": mp3 and aac are 22.05 kHz and opus (in Ogg) 48 kHz, all
 * fixed; flac defaults to 48 kHz; linear16 takes `sample_rate` and `container` wav or none.
 */
export const SPEAK_FORMATS: Readonly<Record<AudioFormat, SpeakFormat>> = {
  mp3: { query: { encoding: 'mp3' }, sampleRate: 22050 },
  wav: { query: { encoding: 'linear16', container: 'wav', sample_rate: String(LINEAR16_RATE) }, sampleRate: LINEAR16_RATE },
  pcm: { query: { encoding: 'linear16', container: 'none', sample_rate: String(LINEAR16_RATE) }, sampleRate: LINEAR16_RATE },
  opus: { query: { encoding: 'opus', container: 'ogg' }, sampleRate: 48000 },
  flac: { query: { encoding: 'flac' }, sampleRate: 48000 },
  aac: { query: { encoding: 'aac' }, sampleRate: 22050 },
};

export const DEEPGRAM_FORMATS = Object.keys(SPEAK_FORMATS) as AudioFormat[];

/** `?model=<voice>&encoding=...`: with Aura the voice is the model. */
export function speakQuery(voice: string, format: AudioFormat): string {
  return new URLSearchParams({ model: voice, ...SPEAK_FORMATS[format].query }).toString();
}

/** The JSON body: `{text}` and nothing else. */
export function speakBody(text: string): { readonly text: string } {
  return { text };
}
