import { bytesOf, floatToInt16, type PcmAudio } from '../pcm';

const HEADER_BYTES = 44;

/** Encodes 16-bit PCM mono RIFF/WAVE. */
export function encodeWav(audio: PcmAudio): Uint8Array {
  const data = bytesOf(floatToInt16(audio.samples));
  const output = new Uint8Array(HEADER_BYTES + data.length);
  const view = new DataView(output.buffer);
  const writeAscii = (offset: number, text: string): void => {
    for (let index = 0; index < text.length; index += 1) output[offset + index] = text.charCodeAt(index);
  };
  writeAscii(0, 'RIFF');
  view.setUint32(4, 36 + data.length, true);
  writeAscii(8, 'WAVE');
  writeAscii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // integer PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, audio.sampleRate, true);
  view.setUint32(28, audio.sampleRate * 2, true); // byte rate
  view.setUint16(32, 2, true); // block align
  view.setUint16(34, 16, true);
  writeAscii(36, 'data');
  view.setUint32(40, data.length, true);
  output.set(data, HEADER_BYTES);
  return output;
}

/** Raw signed 16-bit little-endian mono samples; the caller reports the rate separately. */
export function encodeRawPcm(audio: PcmAudio): Uint8Array {
  const samples = floatToInt16(audio.samples);
  return bytesOf(samples);
}
