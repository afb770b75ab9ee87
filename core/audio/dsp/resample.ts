import type { PcmAudio } from '../pcm';

// Loaded at the first resampling, not at import (16 ms of a start that may never resample).
const libsamplerate = (): typeof import('@alexanderolsen/libsamplerate-js') => require('@alexanderolsen/libsamplerate-js') as typeof import('@alexanderolsen/libsamplerate-js');

/**
 * Converts to `targetRate` with libsamplerate's band-limited sinc converter (medium quality:
 * about 97 dB of stop-band rejection, much faster than the best setting).
 */
export async function resample(audio: PcmAudio, targetRate: number): Promise<PcmAudio> {
  if (audio.sampleRate === targetRate || audio.samples.length === 0) return { samples: audio.samples, sampleRate: targetRate };
  const { ConverterType, create } = libsamplerate();
  const converter = await create(1, audio.sampleRate, targetRate, { converterType: ConverterType.SRC_SINC_MEDIUM_QUALITY });
  try {
    return { samples: converter.simple(audio.samples), sampleRate: targetRate };
  } finally {
    converter.destroy();
  }
}
