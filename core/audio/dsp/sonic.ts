import { importEsm } from '../esm-import';
import type { PcmAudio } from '../pcm';

/** The C functions of the sonic WebAssembly build that we call (the package ships no types). */
interface SonicModule {
  readonly HEAPF32: Float32Array;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  _sonicCreateStream(sampleRate: number, channels: number): number;
  _sonicDestroyStream(stream: number): void;
  _sonicSetSpeed(stream: number, speed: number): void;
  _sonicSetPitch(stream: number, pitch: number): void;
  _sonicSetQuality(stream: number, quality: number): void;
  _sonicWriteFloatToStream(stream: number, samples: number, count: number): number;
  _sonicFlushStream(stream: number): number;
  _sonicSamplesAvailable(stream: number): number;
  _sonicReadFloatFromStream(stream: number, samples: number, maxCount: number): number;
}

type SonicFactory = () => Promise<SonicModule>;

let sonicModule: Promise<SonicModule> | undefined;

/** Instantiates sonic once per thread; later calls share it. */
export function loadSonic(): Promise<SonicModule> {
  sonicModule ??= importEsm<{ default: SonicFactory }>('@echogarden/sonic-wasm').then((module) => module.default());
  return sonicModule;
}

/** Feed size per write: bounds the WASM heap growth for long inputs. */
const CHUNK_SAMPLES = 65_536;

/**
 * Changes tempo (`speed` 2 = half the duration, same pitch) and pitch (`pitch` 2 = an octave up,
 * same duration) with sonic's pitch-synchronous overlap-add, which suits speech.
 */
export async function changeTempoAndPitch(audio: PcmAudio, speed: number, pitch: number): Promise<PcmAudio> {
  const sonic = await loadSonic();
  const stream = sonic._sonicCreateStream(audio.sampleRate, 1);
  const buffer = sonic._malloc(CHUNK_SAMPLES * 4);
  const output: Float32Array[] = [];
  const drain = (): void => {
    for (let available = sonic._sonicSamplesAvailable(stream); available > 0; available = sonic._sonicSamplesAvailable(stream)) {
      const count = sonic._sonicReadFloatFromStream(stream, buffer, Math.min(available, CHUNK_SAMPLES));
      if (count <= 0) break;
      // HEAPF32 is re-read each time: the heap's buffer is replaced when WASM memory grows.
      output.push(sonic.HEAPF32.slice(buffer >> 2, (buffer >> 2) + count));
    }
  };
  try {
    sonic._sonicSetSpeed(stream, speed);
    sonic._sonicSetPitch(stream, pitch);
    // Quality 1 disables sonic's speed-up shortcut that skips pitch periods less carefully.
    sonic._sonicSetQuality(stream, 1);
    for (let start = 0; start < audio.samples.length; start += CHUNK_SAMPLES) {
      const chunk = audio.samples.subarray(start, start + CHUNK_SAMPLES);
      sonic.HEAPF32.set(chunk, buffer >> 2);
      sonic._sonicWriteFloatToStream(stream, buffer, chunk.length);
      drain();
    }
    sonic._sonicFlushStream(stream);
    drain();
  } finally {
    sonic._free(buffer);
    sonic._sonicDestroyStream(stream);
  }
  return { samples: concatenate(output), sampleRate: audio.sampleRate };
}

function concatenate(parts: readonly Float32Array[]): Float32Array {
  const result = new Float32Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    result.set(part, offset);
    offset += part.length;
  }
  return result;
}
