/** Turns the engine's 16-bit mono samples into the bytes of a native format (runs in a worker). */
import { endianness } from 'node:os';
import { createMp3Encoder, type WasmMediaEncoder } from 'wasm-media-encoders';
import type { EngineFormat } from './worker-messages';

/** Speech at 22,050 Hz mono: 64 kbit/s CBR is transparent enough and predictable in size. */
const MP3_BITRATE = 64;
/** Samples handed to the encoder per call, so its buffers stay small. */
const MP3_BLOCK = 1152 * 32;
const WAV_HEADER_BYTES = 44;
/** On a little-endian host a 16-bit sample's bytes in memory already are raw pcm's. */
const LITTLE_ENDIAN_HOST = endianness() === 'LE';

let mp3Encoder: Promise<WasmMediaEncoder<'audio/mpeg'>> | undefined;

/** The pcm bytes may be a view of `samples`' own buffer: the caller hands the samples over. */
export async function encodeSamples(samples: Int16Array<ArrayBuffer>, sampleRate: number, format: EngineFormat): Promise<Uint8Array<ArrayBuffer>> {
  switch (format) {
    case 'pcm':
      return littleEndianBytes(samples);
    case 'wav':
      return wavBytes(samples, sampleRate);
    case 'mp3':
      return mp3Bytes(samples, sampleRate);
  }
}

/**
 * Raw signed 16-bit little-endian bytes: the samples' own bytes where the host is little-endian
 * (one copy of each chunk's audio less for the thread to collect), else a byte-swapped copy.
 */
function littleEndianBytes(samples: Int16Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  if (LITTLE_ENDIAN_HOST) return new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength);
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (let index = 0; index < samples.length; index += 1) view.setInt16(index * 2, samples[index], true);
  return bytes;
}

function wavBytes(samples: Int16Array, sampleRate: number): Uint8Array<ArrayBuffer> {
  const dataBytes = samples.length * 2;
  const bytes = new Uint8Array(WAV_HEADER_BYTES + dataBytes);
  const view = new DataView(bytes.buffer);
  const ascii = (offset: number, text: string): void => {
    for (let index = 0; index < text.length; index += 1) bytes[offset + index] = text.charCodeAt(index);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true); // fmt chunk size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true); // byte rate
  view.setUint16(32, 2, true); // block align
  view.setUint16(34, 16, true); // bits per sample
  ascii(36, 'data');
  view.setUint32(40, dataBytes, true);
  for (let index = 0; index < samples.length; index += 1) view.setInt16(WAV_HEADER_BYTES + index * 2, samples[index], true);
  return bytes;
}

async function mp3Bytes(samples: Int16Array, sampleRate: number): Promise<Uint8Array<ArrayBuffer>> {
  mp3Encoder ??= createMp3Encoder();
  const encoder = await mp3Encoder;
  encoder.configure({ sampleRate, channels: 1, bitrate: MP3_BITRATE });
  const parts: Uint8Array[] = [];
  for (let start = 0; start < samples.length; start += MP3_BLOCK) {
    const block = samples.subarray(start, start + MP3_BLOCK);
    const floats = new Float32Array(block.length);
    for (let index = 0; index < block.length; index += 1) floats[index] = block[index] / 32768;
    // The encoder owns the returned bytes and reuses them on the next call: copy.
    parts.push(encoder.encode([floats]).slice());
  }
  parts.push(encoder.finalize().slice());
  return joinBytes(parts);
}

function joinBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const output = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    output.set(part, offset);
    offset += part.length;
  }
  return output;
}
