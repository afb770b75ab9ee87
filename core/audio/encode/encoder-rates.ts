import type { AudioFormat } from '../audio-format';

/** Rates each codec can encode at; other formats take any rate. */
const CODEC_RATES: Partial<Record<AudioFormat, readonly number[]>> = {
  mp3: [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000],
  opus: [8000, 12000, 16000, 24000, 48000],
  aac: [7350, 8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000, 64000, 88200, 96000],
};

/**
 * The rate audio must have before it is encoded to `format`: the nearest rate the codec takes
 * that is not below `rate` (the highest one for faster audio), or `rate` itself.
 */
export function encoderInputRate(format: AudioFormat, rate: number): number {
  const rates = CODEC_RATES[format];
  if (!rates) return rate;
  return rates.find((candidate) => candidate >= rate) ?? rates[rates.length - 1];
}
