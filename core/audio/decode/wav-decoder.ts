import { downmixPlanar, type PcmAudio } from '../pcm';
import { undecodable } from './decode-error';

/** What a RIFF/WAVE header says about its audio. */
export interface WavInfo {
  readonly sampleRate: number;
  readonly channels: number;
  readonly bitsPerSample: number;
  /** 1 = integer PCM, 3 = IEEE float (WAVE_FORMAT_EXTENSIBLE is resolved to its sub-format). */
  readonly formatTag: number;
  readonly dataOffset: number;
  readonly dataBytes: number;
}

const FORMAT_PCM = 1;
const FORMAT_FLOAT = 3;
const FORMAT_EXTENSIBLE = 0xfffe;
/** Streamed WAVs often carry this placeholder size: it means "until the end". */
const UNKNOWN_SIZE = 0xffffffff;

function ascii(bytes: Uint8Array, offset: number): string {
  return String.fromCharCode(bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3]);
}

/** Reads the chunks of a RIFF/WAVE file; throws a GatewayError on anything it cannot use. */
export function readWavInfo(bytes: Uint8Array): WavInfo {
  if (bytes.length < 12 || ascii(bytes, 0) !== 'RIFF' || ascii(bytes, 8) !== 'WAVE') throw undecodable('wav', 'not a RIFF/WAVE file');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 12;
  let format: Omit<WavInfo, 'dataOffset' | 'dataBytes'> | undefined;
  while (offset + 8 <= bytes.length) {
    const id = ascii(bytes, offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > bytes.length) throw undecodable('wav', 'truncated fmt chunk');
      let formatTag = view.getUint16(body, true);
      if (formatTag === FORMAT_EXTENSIBLE && size >= 40) formatTag = view.getUint16(body + 24, true);
      format = {
        formatTag,
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        bitsPerSample: view.getUint16(body + 14, true),
      };
    } else if (id === 'data') {
      if (!format) throw undecodable('wav', 'data chunk before fmt chunk');
      const available = bytes.length - body;
      const dataBytes = size === UNKNOWN_SIZE || size > available ? available : size;
      return validate({ ...format, dataOffset: body, dataBytes });
    }
    offset = body + size + (size % 2);
  }
  throw undecodable('wav', 'no data chunk');
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
      return (offset) => ((view.getUint8(offset) | (view.getUint8(offset + 1) << 8) | (view.getInt8(offset + 2) << 16)) / 8388608);
    default:
      return (offset) => view.getInt32(offset, true) / 2147483648;
  }
}

/** Decodes integer (8/16/24/32-bit) or float (32/64-bit) WAV of any channel count to mono. */
export function decodeWav(bytes: Uint8Array): PcmAudio {
  const info = readWavInfo(bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const bytesPerSample = info.bitsPerSample / 8;
  const frameBytes = bytesPerSample * info.channels;
  const frames = Math.floor(info.dataBytes / frameBytes);
  const read = sampleReader(info, view);
  const channels = Array.from({ length: info.channels }, () => new Float32Array(frames));
  for (let frame = 0; frame < frames; frame += 1) {
    const base = info.dataOffset + frame * frameBytes;
    for (let channel = 0; channel < info.channels; channel += 1) channels[channel][frame] = read(base + channel * bytesPerSample);
  }
  return { samples: downmixPlanar(channels), sampleRate: info.sampleRate };
}
