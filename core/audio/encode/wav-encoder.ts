import { bytesOf, floatToInt16, type PcmAudio } from '../pcm';
import type { StreamEncoder } from './stream-encoder';

const HEADER_BYTES = 44;
/** The size streamed WAVs (OpenAI's among them) put in their headers: "until the end". */
export const OPEN_ENDED_SIZE = 0xffffffff;

/** A 16-bit mono RIFF/WAVE header; without `dataBytes` both sizes are open-ended. */
export function wavHeader(sampleRate: number, dataBytes?: number): Uint8Array {
  const header = new Uint8Array(HEADER_BYTES);
  const view = new DataView(header.buffer);
  const writeAscii = (offset: number, text: string): void => {
    for (let index = 0; index < text.length; index += 1) header[offset + index] = text.charCodeAt(index);
  };
  writeAscii(0, 'RIFF');
  view.setUint32(4, dataBytes === undefined ? OPEN_ENDED_SIZE : 36 + dataBytes, true);
  writeAscii(8, 'WAVE');
  writeAscii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // integer PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true); // byte rate
  view.setUint16(32, 2, true); // block align
  view.setUint16(34, 16, true);
  writeAscii(36, 'data');
  view.setUint32(40, dataBytes === undefined ? OPEN_ENDED_SIZE : dataBytes, true);
  return header;
}

/** Encodes 16-bit PCM mono RIFF/WAVE with exact sizes in its header. */
export function encodeWav(audio: PcmAudio): Uint8Array {
  const data = bytesOf(floatToInt16(audio.samples));
  const output = new Uint8Array(HEADER_BYTES + data.length);
  output.set(wavHeader(audio.sampleRate, data.length));
  output.set(data, HEADER_BYTES);
  return output;
}

/** Raw signed 16-bit little-endian mono samples; the caller reports the rate separately. */
export function encodeRawPcm(audio: PcmAudio): Uint8Array {
  return bytesOf(floatToInt16(audio.samples));
}

/** Raw s16le, piece by piece. */
export class RawPcmStreamEncoder implements StreamEncoder {
  constructor(readonly outputRate: number) {}

  async write(samples: Float32Array): Promise<Uint8Array> {
    return bytesOf(floatToInt16(samples));
  }

  async end(): Promise<Uint8Array> {
    return new Uint8Array(0);
  }

  dispose(): void {}
}

/** A WAV whose length is not known when it starts: an open-ended header, then s16le samples. */
export class WavStreamEncoder extends RawPcmStreamEncoder {
  private headerSent = false;

  override async write(samples: Float32Array): Promise<Uint8Array> {
    const data = bytesOf(floatToInt16(samples));
    if (this.headerSent) return data;
    this.headerSent = true;
    const output = new Uint8Array(HEADER_BYTES + data.length);
    output.set(wavHeader(this.outputRate));
    output.set(data, HEADER_BYTES);
    return output;
  }

  /** A stream that ends before any sample still gets its header. */
  override async end(): Promise<Uint8Array> {
    return this.write(new Float32Array(0));
  }
}
