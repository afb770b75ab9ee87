import { concatBytes } from '../concat';
import { downmixPlanar, type PcmAudio } from '../pcm';
import { undecodable } from './decode-error';
import type { StreamDecoder } from './stream-decoder';

/** What a RIFF/WAVE header says about its audio. */
export interface WavInfo {
  readonly sampleRate: number;
  readonly channels: number;
  readonly bitsPerSample: number;
  /** 1 = integer PCM, 3 = IEEE float (WAVE_FORMAT_EXTENSIBLE is resolved to its sub-format). */
  readonly formatTag: number;
  readonly dataOffset: number;
  /** Bytes of audio data; for an open-ended data chunk, what is present. */
  readonly dataBytes: number;
  /** True when the header gives no data size (0xFFFFFFFF, as streamed WAVs do): data runs to the end. */
  readonly openEnded: boolean;
}

const FORMAT_PCM = 1;
const FORMAT_FLOAT = 3;
const FORMAT_EXTENSIBLE = 0xfffe;
/** Streamed WAVs often carry this placeholder size: it means "until the end". */
const UNKNOWN_SIZE = 0xffffffff;
/** Header bytes read at most before the data chunk: more is not a WAV a provider sends. */
const MAX_HEADER_BYTES = 1 << 20;

function ascii(bytes: Uint8Array, offset: number): string {
  return String.fromCharCode(bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3]);
}

/**
 * Reads the chunks of a RIFF/WAVE header up to the start of its data. Returns undefined while
 * `bytes` stop before that point; throws a GatewayError on anything it cannot use.
 */
export function parseWavHeader(bytes: Uint8Array): WavInfo | undefined {
  if (bytes.length >= 12 && (ascii(bytes, 0) !== 'RIFF' || ascii(bytes, 8) !== 'WAVE')) throw undecodable('wav', 'not a RIFF/WAVE file');
  if (bytes.length < 12) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 12;
  let format: Pick<WavInfo, 'formatTag' | 'channels' | 'sampleRate' | 'bitsPerSample'> | undefined;
  while (offset + 8 <= bytes.length) {
    const id = ascii(bytes, offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (size < 16) throw undecodable('wav', 'truncated fmt chunk');
      if (body + Math.min(size, 40) > bytes.length) return undefined;
      let formatTag = view.getUint16(body, true);
      if (formatTag === FORMAT_EXTENSIBLE && size >= 40) formatTag = view.getUint16(body + 24, true);
      format = { formatTag, channels: view.getUint16(body + 2, true), sampleRate: view.getUint32(body + 4, true), bitsPerSample: view.getUint16(body + 14, true) };
    } else if (id === 'data') {
      if (!format) throw undecodable('wav', 'data chunk before fmt chunk');
      const available = bytes.length - body;
      const openEnded = size === UNKNOWN_SIZE;
      // Onto this function's own `format`: a spread followed by new fields is slow (see extended()).
      return validate(Object.assign(format, { dataOffset: body, dataBytes: openEnded ? available : size, openEnded }));
    }
    offset = body + size + (size % 2);
  }
  if (offset > MAX_HEADER_BYTES) throw undecodable('wav', 'no data chunk');
  return undefined;
}

/** Reads the header of a whole RIFF/WAVE file; a data size beyond the bytes present is cut to them. */
export function readWavInfo(bytes: Uint8Array): WavInfo {
  const info = parseWavHeader(bytes);
  if (!info) throw undecodable('wav', bytes.length < 12 ? 'not a RIFF/WAVE file' : 'no data chunk');
  return { ...info, dataBytes: Math.min(info.dataBytes, bytes.length - info.dataOffset) };
}

function validate(info: WavInfo): WavInfo {
  const supportedInt = info.formatTag === FORMAT_PCM && [8, 16, 24, 32].includes(info.bitsPerSample);
  const supportedFloat = info.formatTag === FORMAT_FLOAT && (info.bitsPerSample === 32 || info.bitsPerSample === 64);
  if (!supportedInt && !supportedFloat) throw undecodable('wav', `unsupported encoding (tag ${info.formatTag}, ${info.bitsPerSample} bits)`);
  if (info.channels < 1) throw undecodable('wav', 'zero channels');
  if (info.sampleRate < 1000 || info.sampleRate > 384_000) throw undecodable('wav', `implausible sample rate ${info.sampleRate}`);
  return info;
}

function sampleReader(info: WavInfo, view: DataView): (offset: number) => number {
  if (info.formatTag === FORMAT_FLOAT) {
    return info.bitsPerSample === 32 ? (offset) => view.getFloat32(offset, true) : (offset) => view.getFloat64(offset, true);
  }
  switch (info.bitsPerSample) {
    case 8:
      return (offset) => (view.getUint8(offset) - 128) / 128;
    case 16:
      return (offset) => view.getInt16(offset, true) / 32768;
    case 24:
      return (offset) => (view.getUint8(offset) | (view.getUint8(offset + 1) << 8) | (view.getInt8(offset + 2) << 16)) / 8388608;
    default:
      return (offset) => view.getInt32(offset, true) / 2147483648;
  }
}

/** Bytes of one sample of every channel (the block align): whole bytes for every encoding the header check lets in. */
export function wavFrameBytes(info: WavInfo): number {
  return (info.bitsPerSample / 8) * info.channels;
}

/** Decodes whole frames of WAV data (any count of them) to mono. */
function decodeFrames(info: WavInfo, data: Uint8Array): Float32Array {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const bytesPerSample = info.bitsPerSample / 8;
  const frameBytes = wavFrameBytes(info);
  const frames = Math.floor(data.length / frameBytes);
  const read = sampleReader(info, view);
  const channels = Array.from({ length: info.channels }, () => new Float32Array(frames));
  for (let frame = 0; frame < frames; frame += 1) {
    const base = frame * frameBytes;
    for (let channel = 0; channel < info.channels; channel += 1) channels[channel][frame] = read(base + channel * bytesPerSample);
  }
  return downmixPlanar(channels);
}

/** Decodes integer (8/16/24/32-bit) or float (32/64-bit) WAV of any channel count to mono. */
export function decodeWav(bytes: Uint8Array): PcmAudio {
  const info = readWavInfo(bytes);
  return { samples: decodeFrames(info, bytes.subarray(info.dataOffset, info.dataOffset + info.dataBytes)), sampleRate: info.sampleRate };
}

/** A WAV arriving in pieces: the header is collected first, then frames are decoded as they come. */
export class WavStreamDecoder implements StreamDecoder {
  private info?: WavInfo;
  private pending: Uint8Array = new Uint8Array(0);
  /** Data bytes still to come per the header (infinite when open-ended). */
  private remaining = Number.POSITIVE_INFINITY;

  get sampleRate(): number | undefined {
    return this.info?.sampleRate;
  }

  async write(bytes: Uint8Array): Promise<Float32Array> {
    let fresh = bytes;
    if (!this.info) {
      const header = concatBytes([this.pending, bytes]);
      const info = parseWavHeader(header);
      if (!info) {
        this.pending = header;
        return new Float32Array(0);
      }
      this.info = info;
      this.remaining = info.openEnded ? Number.POSITIVE_INFINITY : info.dataBytes;
      this.pending = new Uint8Array(0);
      fresh = header.subarray(info.dataOffset);
    }
    // Chunks after the data chunk (LIST, id3) are not audio.
    const taken = fresh.subarray(0, Math.min(fresh.length, this.remaining));
    this.remaining -= taken.length;
    // A partial frame waits for the rest of its bytes.
    const data = concatBytes([this.pending, taken]);
    const whole = data.length - (data.length % wavFrameBytes(this.info));
    this.pending = data.slice(whole);
    return decodeFrames(this.info, data.subarray(0, whole));
  }

  async end(): Promise<Float32Array> {
    if (!this.info) throw undecodable('wav', this.pending.length < 12 ? 'not a RIFF/WAVE file' : 'no data chunk');
    this.pending = new Uint8Array(0);
    return new Float32Array(0);
  }

  dispose(): void {
    this.pending = new Uint8Array(0);
  }
}
