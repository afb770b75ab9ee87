import { createMp3Encoder, type WasmMediaEncoder } from 'wasm-media-encoders';
import { resample } from '../dsp/resample';
import type { PcmAudio } from '../pcm';
import { encoderInputRate } from './encoder-rates';
import { concatBytes } from '../concat';
import { wholeFramesLength } from '../frame-walker';
import type { EncodedAudio } from './encoded-audio';
import { withInfoFrame } from './mp3-info-frame';
import { encodeWhole, type StreamEncoder } from './stream-encoder';

type Lame = WasmMediaEncoder<'audio/mpeg'>;
type Mp3Rate = 8000 | 11025 | 12000 | 16000 | 22050 | 24000 | 32000 | 44100 | 48000;

/** LAME instances kept per thread for reuse: each costs a few MB of WebAssembly memory. */
const idle: Lame[] = [];
const MAX_IDLE = 4;
/**
 * Samples per encode call. LAME copies each call's input into its WebAssembly memory, which
 * never shrinks: a minute in one call would leave ~50 MB behind in every (reused) instance.
 */
const SLICE_SAMPLES = 8192;

/** Constant bit rate for mono speech: 64 kb/s at MPEG-1 rates, 48 kb/s at the lower MPEG-2 rates. */
function bitrateFor(rate: number): 48 | 64 {
  return rate >= 32000 ? 64 : 48;
}

/** Mono CBR MP3 with LAME (wasm-media-encoders), fed piece by piece. `rate` must be an MP3 rate. */
export class Mp3StreamEncoder implements StreamEncoder {
  private lame?: Lame;
  /**
   * The start of a frame LAME has not finished writing: held for the next call, so every piece
   * is whole frames (as Opus pages, FLAC and ADTS frames are), and a client that decodes each
   * piece (an SSE delta) alone never gets half a frame.
   */
  private partialFrame: Uint8Array = new Uint8Array(0);

  private constructor(
    lame: Lame,
    readonly outputRate: number,
  ) {
    this.lame = lame;
  }

  static async open(rate: number): Promise<Mp3StreamEncoder> {
    if (encoderInputRate('mp3', rate) !== rate) throw new RangeError(`${rate} Hz is not an MP3 sample rate`);
    const lame = idle.pop() ?? (await createMp3Encoder());
    // configure() starts a fresh stream, so a reused instance carries nothing over.
    lame.configure({ channels: 1, sampleRate: rate as Mp3Rate, bitrate: bitrateFor(rate) });
    return new Mp3StreamEncoder(lame, rate);
  }

  async write(samples: Float32Array): Promise<Uint8Array> {
    const lame = this.instance();
    const parts: Uint8Array[] = [this.partialFrame];
    // The encoder returns a view into its memory that the next call overwrites: copy each.
    for (let start = 0; start < samples.length; start += SLICE_SAMPLES) parts.push(lame.encode([samples.subarray(start, start + SLICE_SAMPLES)]).slice());
    const bytes = concatBytes(parts);
    const whole = wholeFramesLength(bytes, 'mp3');
    this.partialFrame = bytes.slice(whole);
    return bytes.subarray(0, whole);
  }

  async end(): Promise<Uint8Array> {
    const tail = concatBytes([this.partialFrame, this.instance().finalize()]);
    this.partialFrame = new Uint8Array(0);
    this.giveBack();
    return tail;
  }

  dispose(): void {
    this.partialFrame = new Uint8Array(0);
    if (!this.lame) return;
    try {
      // Flushing leaves the instance clean for the next stream.
      this.lame.finalize();
      this.giveBack();
    } catch {
      // An instance that cannot flush is not reused.
      this.lame = undefined;
    }
  }

  private instance(): Lame {
    if (!this.lame) throw new Error('MP3 encoder already ended');
    return this.lame;
  }

  private giveBack(): void {
    if (this.lame && idle.length < MAX_IDLE) idle.push(this.lame);
    this.lame = undefined;
  }
}

/**
 * Encodes mono CBR MP3 at the nearest MP3 rate not below the input's. A whole file starts with
 * an Info frame declaring LAME's delay and padding, so decoders trim them (streams cannot: the
 * counts are known only at the end).
 */
export async function encodeMp3(audio: PcmAudio, checkpoint?: () => void): Promise<EncodedAudio> {
  const rate = encoderInputRate('mp3', audio.sampleRate);
  const input = await resample(audio, rate);
  const frames = await encodeWhole(await Mp3StreamEncoder.open(rate), input.samples, checkpoint);
  return { audio: withInfoFrame(frames, input.samples.length), sampleRate: rate };
}
