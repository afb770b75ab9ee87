import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeWav } from '../../../core/audio/decode/wav-decoder';
import type { PcmAudio } from '../../../core/audio/pcm';
import { fixturesRoot } from '../../support/paths';

/** About 4 s of eSpeak NG speech (22.05 kHz mono 16-bit), made with the espeak-ng CLI and ffmpeg. */
export function speechWavBytes(): Uint8Array {
  return new Uint8Array(readFileSync(join(fixturesRoot, 'audio', 'speech-22050.wav')));
}

/** The same speech as 48 kb/s MP3 (ffmpeg/LAME). */
export function speechMp3Bytes(): Uint8Array {
  return new Uint8Array(readFileSync(join(fixturesRoot, 'audio', 'speech-22050.mp3')));
}

export function speechPcm(): PcmAudio {
  return decodeWav(speechWavBytes());
}

/** Interleaves `channels` copies of a mono signal (each scaled by its gain) as a WAV of the given sample type. */
export function buildWav(audio: PcmAudio, options: { channels: number; bits: 16 | 24 | 32; float?: boolean; gains?: number[] }): Uint8Array {
  const bytesPerSample = options.bits / 8;
  const dataBytes = audio.samples.length * options.channels * bytesPerSample;
  const bytes = new Uint8Array(44 + dataBytes);
  const view = new DataView(bytes.buffer);
  const ascii = (offset: number, text: string): void => text.split('').forEach((char, index) => (bytes[offset + index] = char.charCodeAt(0)));
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, options.float ? 3 : 1, true);
  view.setUint16(22, options.channels, true);
  view.setUint32(24, audio.sampleRate, true);
  view.setUint32(28, audio.sampleRate * options.channels * bytesPerSample, true);
  view.setUint16(32, options.channels * bytesPerSample, true);
  view.setUint16(34, options.bits, true);
  ascii(36, 'data');
  view.setUint32(40, dataBytes, true);
  let offset = 44;
  for (const sample of audio.samples) {
    for (let channel = 0; channel < options.channels; channel += 1) {
      const value = sample * (options.gains?.[channel] ?? 1);
      if (options.float) view.setFloat32(offset, value, true);
      else if (options.bits === 16) view.setInt16(offset, Math.round(value * 32767), true);
      else if (options.bits === 32) view.setInt32(offset, Math.round(value * 2147483647), true);
      else {
        const integer = Math.round(value * 8388607);
        view.setUint8(offset, integer & 0xff);
        view.setUint8(offset + 1, (integer >> 8) & 0xff);
        view.setInt8(offset + 2, integer >> 16);
      }
      offset += bytesPerSample;
    }
  }
  return bytes;
}

/** A sine tone, for tests that need an exact, known signal. */
export function tone(frequency: number, seconds: number, amplitude: number, sampleRate: number): PcmAudio {
  const samples = new Float32Array(Math.round(seconds * sampleRate));
  for (let index = 0; index < samples.length; index += 1) samples[index] = amplitude * Math.sin((2 * Math.PI * frequency * index) / sampleRate);
  return { samples, sampleRate };
}
