/** Mono audio as floating-point samples in -1..1: the one shape every decoder yields and every encoder takes. */
export interface PcmAudio {
  /** Mono samples, nominally within -1..1. */
  readonly samples: Float32Array;
  /** Samples per second. */
  readonly sampleRate: number;
}

export function createPcm(samples: Float32Array, sampleRate: number): PcmAudio {
  if (!Number.isFinite(sampleRate) || sampleRate <= 0) throw new RangeError(`invalid sample rate ${sampleRate}`);
  return { samples, sampleRate };
}

export function pcmDurationSeconds(audio: PcmAudio): number {
  return audio.samples.length / audio.sampleRate;
}

/** Averages the channels of planar audio into one mono channel. */
export function downmixPlanar(channels: readonly Float32Array[]): Float32Array {
  if (channels.length === 0) return new Float32Array(0);
  if (channels.length === 1) return channels[0];
  const length = Math.min(...channels.map((channel) => channel.length));
  const mono = new Float32Array(length);
  const scale = 1 / channels.length;
  for (const channel of channels) {
    for (let index = 0; index < length; index += 1) mono[index] += channel[index] * scale;
  }
  return mono;
}

/** Converts float samples to signed 16-bit, clamping (callers limit first, so clamping is a last resort). */
export function floatToInt16(samples: Float32Array): Int16Array {
  const output = new Int16Array(samples.length);
  for (let index = 0; index < samples.length; index += 1) {
    const value = Math.max(-1, Math.min(1, samples[index]));
    output[index] = value < 0 ? Math.round(value * 32768) : Math.round(value * 32767);
  }
  return output;
}

/** Converts signed 16-bit samples to float -1..1. */
export function int16ToFloat(samples: Int16Array): Float32Array {
  const output = new Float32Array(samples.length);
  for (let index = 0; index < samples.length; index += 1) output[index] = samples[index] / 32768;
  return output;
}

/** Returns a byte view of exactly the bytes of a typed array (no copy). */
export function bytesOf(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}
