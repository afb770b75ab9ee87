/**
 * Measurements on decoded audio, shared by tests: durations, levels, pitch and MP3 frame counts.
 * They decode with core's decoders directly (no worker pool) so any test can inspect audio bytes.
 */
import type { AudioFormat } from '../../core/audio/audio-format';
import { decodeAudio } from '../../core/audio/decode/decode-audio';
import { readWavInfo } from '../../core/audio/decode/wav-decoder';
import type { PcmAudio } from '../../core/audio/pcm';

export type { PcmAudio };

/** Decodes wav, pcm (needs `sampleRate`), mp3, opus (Ogg) or flac bytes to mono float PCM. */
export function decodeForTest(bytes: Uint8Array, format: AudioFormat, sampleRate?: number): Promise<PcmAudio> {
  return decodeAudio(bytes, format, sampleRate);
}

export interface WavHeader {
  readonly sampleRate: number;
  readonly channels: number;
  readonly bitsPerSample: number;
  /** Bytes of the data chunk (capped at what the file really holds). */
  readonly dataBytes: number;
}

/** Reads a RIFF/WAVE header; throws when it is not a valid WAV. */
export function parseWavHeader(bytes: Uint8Array): WavHeader {
  const info = readWavInfo(bytes);
  return { sampleRate: info.sampleRate, channels: info.channels, bitsPerSample: info.bitsPerSample, dataBytes: info.dataBytes };
}

export function durationSeconds(pcm: PcmAudio): number {
  return pcm.samples.length / pcm.sampleRate;
}

export function rms(pcm: PcmAudio): number {
  if (pcm.samples.length === 0) return 0;
  let sum = 0;
  for (const sample of pcm.samples) sum += sample * sample;
  return Math.sqrt(sum / pcm.samples.length);
}

export function peak(pcm: PcmAudio): number {
  let highest = 0;
  for (const sample of pcm.samples) highest = Math.max(highest, Math.abs(sample));
  return highest;
}

/** RMS of consecutive 10 ms frames. */
function frameLevels(pcm: PcmAudio, frameLength: number): number[] {
  const levels: number[] = [];
  for (let start = 0; start + frameLength <= pcm.samples.length; start += frameLength) {
    let sum = 0;
    for (let index = start; index < start + frameLength; index += 1) sum += pcm.samples[index] ** 2;
    levels.push(Math.sqrt(sum / frameLength));
  }
  return levels;
}

/** Duration from the first to the last frame louder than -34 dB below the loudest frame. */
export function speechDurationSeconds(pcm: PcmAudio): number {
  const frameLength = Math.max(1, Math.round(pcm.sampleRate / 100));
  const levels = frameLevels(pcm, frameLength);
  const loudest = Math.max(0, ...levels);
  const threshold = Math.max(loudest * 0.02, 1e-4);
  const first = levels.findIndex((level) => level > threshold);
  if (first < 0) return 0;
  let last = levels.length - 1;
  while (levels[last] <= threshold) last -= 1;
  return ((last - first + 1) * frameLength) / pcm.sampleRate;
}

/** Box-filters and decimates to about 8-11 kHz: plenty for F0 and much cheaper to analyse. */
function decimateForPitch(pcm: PcmAudio): PcmAudio {
  const factor = Math.max(1, Math.floor(pcm.sampleRate / 8000));
  if (factor === 1) return pcm;
  const samples = new Float32Array(Math.floor(pcm.samples.length / factor));
  for (let index = 0; index < samples.length; index += 1) {
    let sum = 0;
    for (let offset = 0; offset < factor; offset += 1) sum += pcm.samples[index * factor + offset];
    samples[index] = sum / factor;
  }
  return { samples, sampleRate: pcm.sampleRate / factor };
}

/** YIN estimate of one frame's period in samples, or undefined when the frame is not voiced. */
function yinPeriod(samples: Float32Array, start: number, window: number, minLag: number, maxLag: number): number | undefined {
  const difference = new Float64Array(maxLag + 2);
  for (let lag = 1; lag <= maxLag + 1; lag += 1) {
    let sum = 0;
    for (let index = start; index < start + window; index += 1) {
      const delta = samples[index] - samples[index + lag];
      sum += delta * delta;
    }
    difference[lag] = sum;
  }
  // Cumulative-mean-normalised difference; the first dip under the threshold is the period.
  const normalised = new Float64Array(maxLag + 2).fill(1);
  let running = 0;
  for (let lag = 1; lag <= maxLag + 1; lag += 1) {
    running += difference[lag];
    normalised[lag] = running > 0 ? (difference[lag] * lag) / running : 1;
  }
  for (let lag = minLag; lag <= maxLag; lag += 1) {
    if (normalised[lag] >= 0.15) continue;
    while (lag < maxLag && normalised[lag + 1] < normalised[lag]) lag += 1;
    const [before, here, after] = [normalised[lag - 1], normalised[lag], normalised[lag + 1]];
    const curvature = before - 2 * here + after;
    return curvature > 0 ? lag + (before - after) / (2 * curvature) : lag;
  }
  return undefined;
}

/** Lowest F0 searched: an octave below a low male voice (~70 Hz) still fits. */
const MIN_F0 = 35;

/** Median fundamental frequency (Hz) over voiced 10 ms frames, searched within 35..1000 Hz (YIN). */
export function medianF0(pcm: PcmAudio): number {
  const audio = decimateForPitch(pcm);
  const minLag = Math.max(2, Math.floor(audio.sampleRate / 1000));
  const maxLag = Math.ceil(audio.sampleRate / MIN_F0);
  const window = maxLag;
  const hop = Math.round(audio.sampleRate / 100);
  const levels = frameLevels(audio, hop);
  const loudest = Math.max(0, ...levels);
  const estimates: number[] = [];
  for (let start = 0; start + window + maxLag + 2 <= audio.samples.length; start += hop) {
    // Skip quiet frames: silence and weak fricatives give meaningless periods.
    if ((levels[Math.floor(start / hop)] ?? 0) < loudest * 0.1) continue;
    const period = yinPeriod(audio.samples, start, window, minLag, maxLag);
    if (period !== undefined) estimates.push(audio.sampleRate / period);
  }
  if (estimates.length === 0) return 0;
  estimates.sort((left, right) => left - right);
  return estimates[Math.floor(estimates.length / 2)];
}

const MPEG1_BITRATES = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MPEG2_BITRATES = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const SAMPLE_RATES = [44100, 48000, 32000];

/** Bytes of the MPEG layer III frame whose header starts at `offset`, or 0 if there is none. */
function mp3FrameLength(bytes: Uint8Array, offset: number): number {
  if (offset + 4 > bytes.length || bytes[offset] !== 0xff || (bytes[offset + 1] & 0xe0) !== 0xe0) return 0;
  const version = (bytes[offset + 1] >> 3) & 0b11; // 3 = MPEG1, 2 = MPEG2, 0 = MPEG2.5
  const layer = (bytes[offset + 1] >> 1) & 0b11;
  const bitrateIndex = bytes[offset + 2] >> 4;
  const rateIndex = (bytes[offset + 2] >> 2) & 0b11;
  if (version === 1 || layer !== 1 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return 0;
  const padding = (bytes[offset + 2] >> 1) & 1;
  const divisor = version === 3 ? 1 : version === 2 ? 2 : 4;
  const sampleRate = SAMPLE_RATES[rateIndex] / divisor;
  const bitrate = (version === 3 ? MPEG1_BITRATES : MPEG2_BITRATES)[bitrateIndex] * 1000;
  const coefficient = version === 3 ? 144 : 72;
  return Math.floor((coefficient * bitrate) / sampleRate) + padding;
}

/** Counts MPEG layer III frames (an Xing/Info header frame counts too), skipping ID3v2 tags and junk. */
export function countMp3Frames(bytes: Uint8Array): number {
  let offset = 0;
  if (bytes.length >= 10 && bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33) {
    offset = 10 + (((bytes[6] & 0x7f) << 21) | ((bytes[7] & 0x7f) << 14) | ((bytes[8] & 0x7f) << 7) | (bytes[9] & 0x7f));
  }
  let frames = 0;
  while (offset + 4 <= bytes.length) {
    const length = mp3FrameLength(bytes, offset);
    if (length > 0 && offset + length <= bytes.length) {
      frames += 1;
      offset += length;
    } else {
      offset += 1;
    }
  }
  return frames;
}
