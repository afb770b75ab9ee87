import type { MPEGDecoder } from 'mpg123-decoder';
import type { OggOpusDecoder } from 'ogg-opus-decoder';
import { isGatewayError } from '../../errors';
import { concatSamples } from '../concat';
import { FrameWalker, OGG_JUNK } from '../frame-walker';
import { downmixPlanar } from '../pcm';
import { undecodable } from './decode-error';
import { quietDecoderConsole } from './quiet-decoder-console';
import type { StreamDecoder } from './stream-decoder';

/** The part of the wasm-audio-decoders results we use (same shape for every codec). */
interface DecodedAudio {
  readonly channelData: Float32Array[];
  readonly samplesDecoded: number;
  readonly sampleRate: number;
  readonly errors: readonly { readonly message: string; readonly frameNumber?: number }[];
}

// Each package is loaded at its first decode, not at import: together they took 30 ms of a start
// that may never decode (a gateway passing audio through). Their own stderr lines go with it.
const mpg123 = (): typeof import('mpg123-decoder') => {
  quietDecoderConsole();
  return require('mpg123-decoder') as typeof import('mpg123-decoder');
};
const oggOpus = (): typeof import('ogg-opus-decoder') => {
  quietDecoderConsole();
  return require('ogg-opus-decoder') as typeof import('ogg-opus-decoder');
};

/** Input bytes per decode call: bounds how far the decoder's WebAssembly memory grows. */
const SLICE_BYTES = 32 * 1024;

interface WasmDecoder {
  readonly ready: Promise<void>;
  free(): void;
}

/**
 * A wasm-audio-decoders decoder fed piece by piece (they keep partial frames between calls).
 * Samples are copied out so they do not pin the decoder's WebAssembly memory.
 */
abstract class WasmStreamDecoder<Decoder extends WasmDecoder> implements StreamDecoder {
  sampleRate: number | undefined;
  private samplesOut = 0;
  private freed = false;

  protected constructor(
    private readonly format: string,
    protected readonly decoder: Decoder,
  ) {}

  protected abstract decodePiece(bytes: Uint8Array): DecodedAudio | Promise<DecodedAudio>;
  protected abstract decodeRest(): Promise<DecodedAudio | undefined>;

  write(bytes: Uint8Array): Promise<Float32Array> {
    return this.guard(async () => {
      const parts: Float32Array[] = [];
      for (let start = 0; start < bytes.length; start += SLICE_BYTES) parts.push(this.take(await this.decodePiece(bytes.subarray(start, start + SLICE_BYTES))));
      return concatSamples(parts);
    });
  }

  end(): Promise<Float32Array> {
    return this.guard(async () => {
      const rest = await this.decodeRest();
      const samples = rest ? this.take(rest) : new Float32Array(0);
      if (this.samplesOut === 0) throw undecodable(this.format, 'no audio frames found');
      this.dispose();
      return samples;
    });
  }

  dispose(): void {
    if (this.freed) return;
    this.freed = true;
    this.decoder.free();
  }

  private async guard(work: () => Promise<Float32Array>): Promise<Float32Array> {
    try {
      await this.decoder.ready;
      return await work();
    } catch (error) {
      this.dispose();
      if (isGatewayError(error)) throw error;
      throw undecodable(this.format, error instanceof Error ? error.message : String(error));
    }
  }

  private take(decoded: DecodedAudio): Float32Array {
    // A frame the codec refused is junk in the answer: decoders skip it and resync on bytes that
    // only look like frames, which comes out as bursts of noise. The answer is the provider's fault.
    const [error] = decoded.errors;
    if (error) throw undecodable(this.format, `corrupt data${error.frameNumber === undefined ? '' : ` at frame ${error.frameNumber}`}: ${error.message}`);
    if (decoded.samplesDecoded === 0) return new Float32Array(0);
    this.sampleRate ??= decoded.sampleRate;
    this.samplesOut += decoded.samplesDecoded;
    const channels = decoded.channelData.map((channel) => channel.subarray(0, decoded.samplesDecoded));
    return Float32Array.from(downmixPlanar(channels));
  }
}

/** MPEG-1/2 layer III via mpg123 compiled to WebAssembly. */
export class Mp3StreamDecoder extends WasmStreamDecoder<MPEGDecoder> {
  constructor() {
    super('mp3', new (mpg123().MPEGDecoder)());
  }

  protected decodePiece(bytes: Uint8Array): DecodedAudio {
    return this.decoder.decode(bytes);
  }

  /** mpg123 outputs each frame once it is complete: nothing is held back. */
  protected async decodeRest(): Promise<undefined> {
    return undefined;
  }
}

/** Opus in an Ogg container; always yields 48 kHz, which is Opus's internal rate. */
export class OggOpusStreamDecoder extends WasmStreamDecoder<OggOpusDecoder> {
  private readonly pages = FrameWalker.for('opus')!;

  constructor() {
    super('opus', new (oggOpus().OggOpusDecoder)());
  }

  protected decodePiece(bytes: Uint8Array): Promise<DecodedAudio> {
    this.pages.push(bytes);
    // Typed as synchronous, but the implementation returns a promise.
    return Promise.resolve(this.decoder.decode(bytes));
  }

  protected decodeRest(): Promise<DecodedAudio> {
    // Flushed with half a page, the decoder makes up seconds of silence (measured: 5.2 s for a
    // 4 s answer cut in two): an answer cut inside a page is refused instead.
    if (this.pages.cutShort) throw undecodable('opus', 'the Ogg stream ends inside a page (cut short?)');
    // The decoder stops silently at bytes with no Ogg sync and gives the pages before as the whole answer.
    if (this.pages.junkAfterPages) throw undecodable('opus', OGG_JUNK);
    return this.decoder.flush();
  }
}
