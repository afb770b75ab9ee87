import type { AudioFormat, ModelCapabilities, ModelInfo } from '../../core';

/**
 * Google's voice families, published as models. A voice name is `<locale>-<Family>-<Variant>`
 * (`en-US-Wavenet-D`, `en-US-Chirp3-HD-Charon`); `family` is its middle part. Model names carry a
 * `google-` prefix so they never clash with another provider's ids.
 */
export interface GoogleFamily {
  readonly model: string;
  readonly family: string;
  readonly label: string;
  readonly capabilities: ModelCapabilities;
}

/** LINEAR16 (a WAV file), MP3 and OGG_OPUS: what every family returns, each faithfully labelled. */
const FORMATS: readonly AudioFormat[] = ['wav', 'mp3', 'opus'];
/** speakingRate 0.25..2.0 (the current limit; older documents said 4.0). */
const SPEED = { min: 0.25, max: 2 };
/** pitch -20..+20 semitones as a frequency ratio. */
const PITCH = { min: 2 ** (-20 / 12), max: 2 ** (20 / 12) };
/** volumeGainDb -96..+16 dB as an amplitude ratio. */
const VOLUME = { min: 10 ** (-96 / 20), max: 10 ** (16 / 20) };
/** The API takes at most 5,000 bytes of input; characters can never exceed bytes. */
const LIMITS = { maxInputChars: 5000, maxInputBytes: 5000 };

const full: ModelCapabilities = { formats: FORMATS, speed: SPEED, pitch: PITCH, volume: VOLUME, ...LIMITS };
/** Studio and Chirp 3 HD voices reject `pitch` ("This voice does not support pitch parameters"). */
const noPitch: ModelCapabilities = { formats: FORMATS, speed: SPEED, volume: VOLUME, ...LIMITS };
/** Chirp HD (formerly Journey) voices reject both `speakingRate` and `pitch`, even at neutral values. */
const gainOnly: ModelCapabilities = { formats: FORMATS, volume: VOLUME, ...LIMITS };

export const GOOGLE_FAMILIES: readonly GoogleFamily[] = [
  { model: 'google-standard', family: 'Standard', label: 'Standard', capabilities: full },
  { model: 'google-wavenet', family: 'Wavenet', label: 'WaveNet', capabilities: full },
  { model: 'google-neural2', family: 'Neural2', label: 'Neural2', capabilities: full },
  { model: 'google-news', family: 'News', label: 'News', capabilities: full },
  { model: 'google-casual', family: 'Casual', label: 'Casual', capabilities: full },
  { model: 'google-polyglot', family: 'Polyglot', label: 'Polyglot', capabilities: full },
  { model: 'google-studio', family: 'Studio', label: 'Studio', capabilities: noPitch },
  { model: 'google-chirp3-hd', family: 'Chirp3-HD', label: 'Chirp 3: HD', capabilities: noPitch },
  { model: 'google-chirp-hd', family: 'Chirp-HD', label: 'Chirp HD', capabilities: gainOnly },
];

export function findFamily(model: string): GoogleFamily | undefined {
  return GOOGLE_FAMILIES.find((family) => family.model === model);
}

export function toModelInfo(family: GoogleFamily): ModelInfo {
  return {
    name: family.model,
    description: `Google Cloud Text-to-Speech, ${family.label} voices`,
    capabilities: family.capabilities,
  };
}
