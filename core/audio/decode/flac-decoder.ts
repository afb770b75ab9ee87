import { isGatewayError } from '../../errors';
import { loadFlac } from '../codecs/flac-library';
import { concatBytes } from '../concat';
import { downmixPlanar, type PcmAudio } from '../pcm';
import { undecodable } from './decode-error';
import type { StreamDecoder } from './stream-decoder';

interface DecodedBlock {
  readonly channels: Float32Array[];
}

/** Reads one channel's bytes from libflac.js: little-endian signed integers, 24-bit ones padded to 4 bytes. */
function readChannel(bytes: Uint8Array, blockSize: number, bitsPerSample: number): Float32Array {
  const width = bytes.length / blockSize;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const scale = 1 / 2 ** (bitsPerSample - 1);
  const samples = new Float32Array(blockSize);
  for (let index = 0; index < blockSize; index += 1) {
    const offset = index * width;
    const value = width === 2 ? view.getInt16(offset, true) : width === 4 ? view.getInt32(offset, true) : view.getInt8(offset);
    samples[index] = value * scale;
  }
  return samples;
}

/** STREAMINFO's total of samples per channel (36 bits after the rate, channels and depth); 0 = not known (a streamed FLAC). */
function streamInfoSamples(bytes: Uint8Array): number {
  if (bytes.length < 26 || bytes[0] !== 0x66 || bytes[1] !== 0x4c || bytes[2] !== 0x61 || bytes[3] !== 0x43) return 0;
  return (bytes[21] & 0x0f) * 2 ** 32 + new DataView(bytes.buffer, bytes.byteOffset + 22, 4).getUint32(0);
}

/**
 * Decodes native FLAC with the reference libFLAC. (The @wasm-audio-decoders FLAC decoder was
 * measured to drop the final partial frame, so it is not used.)
 */
export async function decodeFlac(bytes: Uint8Array): Promise<PcmAudio> {
  const flac = await loadFlac();
  const decoder = flac.create_libflac_decoder(false);
  if (!decoder) throw undecodable('flac', 'could not create a decoder');
  const blocks: DecodedBlock[] = [];
  let sampleRate = 0;
  let error: string | undefined;
  let position = 0;
  // A private copy: libflac.js wants a plain ArrayBuffer-backed array.
  const source = new Uint8Array(bytes);
  try {
    const status = flac.init_decoder_stream(
      decoder,
      (maxBytes) => {
        const chunk = source.subarray(position, Math.min(source.length, position + maxBytes));
        position += chunk.length;
        return { buffer: chunk, readDataLength: chunk.length, error: false };
      },
      (data, frame) => {
        sampleRate = frame.sampleRate;
        blocks.push({ channels: data.map((channel) => readChannel(channel, frame.blocksize, frame.bitsPerSample)) });
      },
      (_code, description) => {
        error ??= String(description);
      },
    );
    if (status !== 0) throw undecodable('flac', `decoder init status ${status}`);
    flac.FLAC__stream_decoder_process_until_end_of_stream(decoder);
    flac.FLAC__stream_decoder_finish(decoder);
  } catch (failure) {
    if (isGatewayError(failure)) throw failure;
    throw undecodable('flac', failure instanceof Error ? failure.message : String(failure));
  } finally {
    flac.FLAC__stream_decoder_delete(decoder);
  }
  if (blocks.length === 0 || sampleRate === 0) throw undecodable('flac', error ?? 'no audio frames found');
  // libFLAC reports junk (lost sync, a bad frame CRC) and goes on past it: the answer is damaged.
  if (error !== undefined) throw undecodable('flac', error);
  const mono = blocks.map((block) => downmixPlanar(block.channels));
  const samples = new Float32Array(mono.reduce((total, block) => total + block.length, 0));
  const promised = streamInfoSamples(source);
  if (promised > 0 && samples.length < promised) throw undecodable('flac', `${samples.length} of the ${promised} samples its STREAMINFO counts (cut short?)`);
  let offset = 0;
  for (const block of mono) {
    samples.set(block, offset);
    offset += block.length;
  }
  return { samples, sampleRate };
}

/**
 * FLAC in pieces: libFLAC's decoder pulls its input and cannot wait for more, so the pieces
 * of one answer are collected and decoded when it ends (providers send FLAC whole anyway).
 */
export class FlacStreamDecoder implements StreamDecoder {
  sampleRate: number | undefined;
  private pieces: Uint8Array[] = [];

  async write(bytes: Uint8Array): Promise<Float32Array> {
    this.pieces.push(bytes);
    return new Float32Array(0);
  }

  async end(): Promise<Float32Array> {
    const pieces = this.pieces;
    this.pieces = [];
    const decoded = await decodeFlac(concatBytes(pieces));
    this.sampleRate = decoded.sampleRate;
    return decoded.samples;
  }

  dispose(): void {
    this.pieces = [];
  }
}
