/** MPEG audio layer III frame header facts (ISO 11172-3 / 13818-3), shared by the frame walker and the Info frame writer. */

/** kb/s by bitrate index: MPEG-1, then MPEG-2 and 2.5. Index 0 (free format) and 15 (bad) are not used. */
export const MP3_BITRATES_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
export const MP3_BITRATES_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
/** Sample rates by the header's version bits (3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5), then rate index. */
export const MP3_RATES: Readonly<Record<number, readonly number[]>> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

export interface Mp3Header {
  /** 3 for MPEG-1, 2 for MPEG-2, 0 for MPEG-2.5 (the header's bits). */
  readonly version: number;
  readonly sampleRate: number;
  readonly samplesPerFrame: 1152 | 576;
  readonly mono: boolean;
  /** The whole frame's length in bytes, header included. */
  readonly length: number;
}

export function bitratesOf(version: number): readonly number[] {
  return version === 3 ? MP3_BITRATES_V1 : MP3_BITRATES_V2;
}

/** Layer III frame length in bytes for a bitrate (kb/s), with or without the padding slot. */
export function mp3FrameLength(samplesPerFrame: number, bitrate: number, sampleRate: number, padded: boolean): number {
  return Math.floor(((samplesPerFrame / 8) * bitrate * 1000) / sampleRate) + (padded ? 1 : 0);
}

/** The layer III frame header at `offset`, or undefined when the bytes there are not one. */
export function readMp3Header(bytes: Uint8Array, offset: number): Mp3Header | undefined {
  if (bytes.length - offset < 4 || bytes[offset] !== 0xff || (bytes[offset + 1] & 0xe0) !== 0xe0) return undefined;
  const version = (bytes[offset + 1] >> 3) & 0b11;
  const layer = (bytes[offset + 1] >> 1) & 0b11;
  if (version === 1 || layer !== 1) return undefined;
  const bitrate = bitratesOf(version)[bytes[offset + 2] >> 4];
  const sampleRate = MP3_RATES[version]?.[(bytes[offset + 2] >> 2) & 0b11];
  if (!bitrate || !sampleRate) return undefined;
  const samplesPerFrame = version === 3 ? 1152 : 576;
  const length = mp3FrameLength(samplesPerFrame, bitrate, sampleRate, ((bytes[offset + 2] >> 1) & 1) === 1);
  return { version, sampleRate, samplesPerFrame, mono: bytes[offset + 3] >> 6 === 0b11, length };
}

/** Xing and Info, the tags of a frame that describes the file (frame count, encoder delay) instead of carrying audio. */
const XING = [0x58, 0x69, 0x6e, 0x67];
const INFO = [0x49, 0x6e, 0x66, 0x6f];
/** The tag follows the header and the side information: within the frame's first 40 bytes after its header. */
const TAG_SEARCH_BYTES = 40;

function tagAt(bytes: Uint8Array, at: number, tag: readonly number[]): boolean {
  return bytes[at] === tag[0] && bytes[at + 1] === tag[1] && bytes[at + 2] === tag[2] && bytes[at + 3] === tag[3];
}

/**
 * Whether the frame at `offset` (`length` bytes long, as far as its bytes have come) is a
 * Xing/Info frame. Compared in place: a string per position showed in a request's profile. Only
 * a file's first frame can be one, so callers ask for that frame alone.
 */
export function describesTheFile(bytes: Uint8Array, offset: number, length = 4 + TAG_SEARCH_BYTES): boolean {
  const last = Math.min(bytes.length, offset + 4 + Math.min(length, TAG_SEARCH_BYTES)) - 4;
  for (let at = offset + 4; at <= last; at += 1) if (tagAt(bytes, at, XING) || tagAt(bytes, at, INFO)) return true;
  return false;
}
