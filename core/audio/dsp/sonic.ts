import { concatSamples } from '../concat';
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
 * One sonic stream (pitch-synchronous overlap-add, which suits speech): tempo and pitch state
 * carries over from one write to the next, so audio fed in pieces has no seams of its own.
 */
export class SonicStream {
  private disposed = false;

  private constructor(
    private readonly sonic: SonicModule,
    private readonly stream: number,
  ) {}

  /** `speed` 2 = half the duration, same pitch; `pitch` 2 = an octave up, same duration. */
  static async open(sampleRate: number, speed: number, pitch: number): Promise<SonicStream> {
    const sonic = await loadSonic();
    const stream = sonic._sonicCreateStream(sampleRate, 1);
    if (!stream) throw new Error('sonic could not create a stream');
    sonic._sonicSetSpeed(stream, speed);
    sonic._sonicSetPitch(stream, pitch);
    // Quality 1 disables sonic's speed-up shortcut that skips pitch periods less carefully.
    sonic._sonicSetQuality(stream, 1);
    return new SonicStream(sonic, stream);
  }

  /** Feeds samples; returns what sonic has ready (it keeps some back for the next periods). */
  write(samples: Float32Array): Float32Array {
    return this.withBuffer((buffer, output) => {
      for (let start = 0; start < samples.length; start += CHUNK_SAMPLES) {
        const chunk = samples.subarray(start, start + CHUNK_SAMPLES);
        this.sonic.HEAPF32.set(chunk, buffer >> 2);
        this.sonic._sonicWriteFloatToStream(this.stream, buffer, chunk.length);
        this.drain(buffer, output);
      }
    });
  }

  /** Processes what is held back and returns the rest; the stream can take no more input. */
  flush(): Float32Array {
    return this.withBuffer((buffer, output) => {
      this.sonic._sonicFlushStream(this.stream);
      this.drain(buffer, output);
    });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.sonic._sonicDestroyStream(this.stream);
  }

  private withBuffer(work: (buffer: number, output: Float32Array[]) => void): Float32Array {
    if (this.disposed) throw new Error('sonic stream already disposed');
    const buffer = this.sonic._malloc(CHUNK_SAMPLES * 4);
    const output: Float32Array[] = [];
    try {
      work(buffer, output);
    } finally {
      this.sonic._free(buffer);
    }
    return concatSamples(output);
  }

  private drain(buffer: number, output: Float32Array[]): void {
    const sonic = this.sonic;
    for (let available = sonic._sonicSamplesAvailable(this.stream); available > 0; available = sonic._sonicSamplesAvailable(this.stream)) {
      const count = sonic._sonicReadFloatFromStream(this.stream, buffer, Math.min(available, CHUNK_SAMPLES));
      if (count <= 0) break;
      // HEAPF32 is re-read each time: the heap's buffer is replaced when WASM memory grows.
      output.push(sonic.HEAPF32.slice(buffer >> 2, (buffer >> 2) + count));
    }
  }
}

/**
 * Changes tempo (`speed` 2 = half the duration, same pitch) and pitch (`pitch` 2 = an octave up,
 * same duration) of a whole signal.
 */
export async function changeTempoAndPitch(audio: PcmAudio, speed: number, pitch: number): Promise<PcmAudio> {
  const stream = await SonicStream.open(audio.sampleRate, speed, pitch);
  try {
    const body = stream.write(audio.samples);
    const tail = stream.flush();
    return { samples: concatSamples([body, tail]), sampleRate: audio.sampleRate };
  } finally {
    stream.dispose();
  }
}
