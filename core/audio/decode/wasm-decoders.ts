import { MPEGDecoder } from 'mpg123-decoder';
import { OggOpusDecoder } from 'ogg-opus-decoder';
import { isGatewayError } from '../../errors';
import { downmixPlanar, type PcmAudio } from '../pcm';
import { undecodable } from './decode-error';

/** The part of the wasm-audio-decoders results we use (same shape for every codec). */
interface DecodedAudio {
  readonly channelData: Float32Array[];
  readonly samplesDecoded: number;
  readonly sampleRate: number;
  readonly errors: readonly { readonly message: string }[];
}

interface WasmDecoder {
  readonly ready: Promise<void>;
  free(): void;
}

async function runDecoder<Decoder extends WasmDecoder>(
  format: string,
  decoder: Decoder,
  decode: (decoder: Decoder) => DecodedAudio | Promise<DecodedAudio>,
): Promise<PcmAudio> {
  try {
    await decoder.ready;
    const decoded = await decode(decoder);
    if (decoded.samplesDecoded === 0) {
      throw undecodable(format, decoded.errors[0]?.message ?? 'no audio frames found');
    }
    const channels = decoded.channelData.map((channel) => channel.subarray(0, decoded.samplesDecoded));
    // Copy so the result does not pin the decoder's WASM memory.
    return { samples: Float32Array.from(downmixPlanar(channels)), sampleRate: decoded.sampleRate };
  } catch (error) {
    if (isGatewayError(error)) throw error;
    throw undecodable(format, error instanceof Error ? error.message : String(error));
  } finally {
    decoder.free();
  }
}

/** MPEG-1/2 layer III via mpg123 compiled to WebAssembly. */
export function decodeMp3(bytes: Uint8Array): Promise<PcmAudio> {
  return runDecoder('mp3', new MPEGDecoder(), (decoder) => decoder.decode(bytes));
}

/** Opus in an Ogg container; always yields 48 kHz, which is Opus's internal rate. */
export function decodeOggOpus(bytes: Uint8Array): Promise<PcmAudio> {
  return runDecoder('opus', new OggOpusDecoder(), (decoder) => decoder.decodeFile(bytes));
}
