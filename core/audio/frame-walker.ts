import type { AudioFormat } from './audio-format';
import { adtsFrameLength, adtsFrameSamples, adtsSampleRate } from './adts-header';
import { bitratesOf, describesTheFile, MP3_RATES, mp3FrameLength } from './mp3-header';
import { WavWalker } from './wav-walker';
import { FLAC_CUT_SHORT, FlacWalker } from './flac-walker';
import { oggOpusPageSeconds } from './ogg-opus-seconds';

/** Why an Ogg answer with bytes that are no page after (or between) its pages is not whole. */
export const OGG_JUNK = 'the ogg audio has bytes that are no Ogg page after its pages (corrupt?)';

/** Why a WAV answer is not whole. */
export const WAV_CUT_SHORT = 'the wav audio ends before the data size in its header (cut short?)';

/**
 * What a frame reader makes of the bytes at a frame's start, as one number (an object per frame
 * was the largest allocation of a streamed MP3 answer): the frame's length when positive, minus
 * the bytes needed to read it when negative, `NOT_A_FRAME` when they are not a frame.
 */
type FrameRead = number;
const NOT_A_FRAME = 0;

/** Reads the length of the frame (MP3, ADTS) or page (Ogg) that starts at `offset`. */
type FrameReader = (bytes: Uint8Array, offset: number, streamStart: boolean) => FrameRead;

const NO_BYTES = new Uint8Array(0);


/** An MPEG audio layer III frame, or an ID3v2 tag at the start of the stream. */
const mp3Frame: FrameReader = (bytes, offset, streamStart) => {
  const available = bytes.length - offset;
  if (streamStart && bytes[offset] === 0x49) {
    if (available < 10) return -10;
    if (bytes[offset + 1] !== 0x44 || bytes[offset + 2] !== 0x33) return NOT_A_FRAME;
    return 10 + (((bytes[offset + 6] & 0x7f) << 21) | ((bytes[offset + 7] & 0x7f) << 14) | ((bytes[offset + 8] & 0x7f) << 7) | (bytes[offset + 9] & 0x7f));
  }
  if (bytes[offset] !== 0xff) return NOT_A_FRAME;
  if (available < 4) return -4;
  const version = (bytes[offset + 1] >> 3) & 0b11;
  const layer = (bytes[offset + 1] >> 1) & 0b11;
  if (bytes[offset] !== 0xff || (bytes[offset + 1] & 0xe0) !== 0xe0 || version === 1 || layer !== 1) return NOT_A_FRAME;
  // Read in place, not with readMp3Header: an object per frame was a streamed answer's largest allocation.
  const bitrate = bitratesOf(version)[bytes[offset + 2] >> 4];
  const rate = MP3_RATES[version]?.[(bytes[offset + 2] >> 2) & 0b11];
  if (!bitrate || !rate) return NOT_A_FRAME;
  return mp3FrameLength(version === 3 ? 1152 : 576, bitrate, rate, ((bytes[offset + 2] >> 1) & 1) === 1);
};

/** An Ogg page: 27 header bytes, a segment table, then the segments. */
const oggPage: FrameReader = (bytes, offset) => {
  if (bytes[offset] !== 0x4f) return NOT_A_FRAME;
  if (bytes.length - offset < 27) return -27;
  if ( bytes[offset + 1] !== 0x67 || bytes[offset + 2] !== 0x67 || bytes[offset + 3] !== 0x53) return NOT_A_FRAME;
  const segments = bytes[offset + 26];
  if (bytes.length - offset < 27 + segments) return -(27 + segments);
  let body = 0;
  for (let index = 0; index < segments; index += 1) body += bytes[offset + 27 + index];
  return 27 + segments + body;
};

/** An ADTS (AAC) frame: its 13-bit length is in its header. */
const adtsFrame: FrameReader = (bytes, offset) => {
  if (bytes[offset] !== 0xff) return NOT_A_FRAME;
  if (bytes.length - offset < 7) return -7;
  if ( (bytes[offset + 1] & 0xf6) !== 0xf0) return NOT_A_FRAME;
  const length = adtsFrameLength(bytes, offset);
  return length >= 7 ? length : NOT_A_FRAME;
};

const READERS: Partial<Record<AudioFormat, FrameReader>> = { mp3: mp3Frame, opus: oggPage, aac: adtsFrame };

/**
 * Seconds of audio in the frame whose (read) header starts at `offset`; 0 for a tag. `beforeAudio`:
 * no audio frame was counted yet, so this one may be the file's Xing/Info frame.
 */
export type FrameSeconds = (bytes: Uint8Array, offset: number, beforeAudio: boolean) => number;

// Only the first frame can be a Xing/Info frame: later ones are not searched (every frame passes here).
const mp3FrameSeconds: FrameSeconds = (bytes, offset, beforeAudio) => {
  if (bytes[offset] !== 0xff || (beforeAudio && describesTheFile(bytes, offset))) return 0;
  const version = (bytes[offset + 1] >> 3) & 0b11;
  const rate = MP3_RATES[version]?.[(bytes[offset + 2] >> 2) & 0b11];
  return rate ? (version === 3 ? 1152 : 576) / rate : 0;
};

const adtsFrameSeconds: FrameSeconds = (bytes, offset) => {
  const rate = adtsSampleRate(bytes, offset);
  return rate ? adtsFrameSamples(bytes, offset) / rate : 0;
};

const SECONDS: Partial<Record<AudioFormat, () => FrameSeconds>> = { mp3: () => mp3FrameSeconds, aac: () => adtsFrameSeconds, opus: oggOpusPageSeconds };

/**
 * Follows the frames (MP3, ADTS) or pages (Ogg) of an answer as its bytes arrive, to tell at
 * the end whether it stopped in the middle of one: an answer cut short. Bytes that are not a
 * frame where one should start end the walk: without a verdict for MP3 and ADTS (a trailing ID3v1
 * or APE tag is legitimate there), as junk for Ogg (nothing may follow or sit between its pages,
 * and the decoder would silently stop there, passing a part of the answer as the whole).
 */
export class FrameWalker {
  private readonly reader: FrameReader;
  /** Bytes at the start of the next frame, too few yet to read its length. */
  private carry = NO_BYTES;
  /** Bytes of the current frame still to come. */
  private remaining = 0;
  private started = false;
  private lost = false;
  /** The stream's pages were followed by bytes that are no Ogg page. */
  private junk = false;

  /** Seconds of audio in the frames walked so far (MP3, ADTS; Ogg Opus by its pages' granule positions). */
  seconds = 0;

  private constructor(
    reader: FrameReader,
    private readonly frameSeconds?: FrameSeconds,
  ) {
    this.reader = reader;
  }

  /** A walker for `format`, or undefined for formats without frame lengths to follow. */
  static for(format: AudioFormat): FrameWalker | undefined {
    const reader = READERS[format];
    return reader ? new FrameWalker(reader, SECONDS[format]?.()) : undefined;
  }

  push(chunk: Uint8Array): void {
    if (this.lost) return;
    if (this.remaining >= chunk.length) {
      this.remaining -= chunk.length;
      return;
    }
    // Walked in place from the current frame's end; only a header split across chunks is copied.
    let bytes = chunk;
    let offset = this.remaining;
    this.remaining = 0;
    if (this.carry.length > 0) {
      bytes = Buffer.concat([this.carry, chunk.subarray(offset)]);
      offset = 0;
      this.carry = NO_BYTES;
    }
    while (offset < bytes.length) {
      const read = this.reader(bytes, offset, !this.started);
      if (read === NOT_A_FRAME) {
        this.lost = true;
        this.junk = this.started && this.reader === oggPage;
        return;
      }
      if (read < 0) {
        this.carry = bytes.slice(offset);
        return;
      }
      this.started = true;
      if (this.frameSeconds) this.seconds += this.frameSeconds(bytes, offset, this.seconds === 0);
      if (offset + read > bytes.length) {
        this.remaining = offset + read - bytes.length;
        return;
      }
      offset += read;
    }
  }

  /** True when the bytes so far stop inside a frame (or a frame header). */
  get cutShort(): boolean {
    return !this.lost && (this.remaining > 0 || this.carry.length > 0);
  }

  /** True when Ogg pages were followed by bytes that are no page (a stream ending on a page boundary is not). */
  get junkAfterPages(): boolean {
    return this.junk;
  }
}

/** Why an answer in `format` whose walker found it cut short is not whole. */
export function cutShortReason(format: AudioFormat): string {
  if (format === 'wav') return WAV_CUT_SHORT;
  if (format === 'flac') return FLAC_CUT_SHORT;
  return `the ${format} audio ends in the middle of a frame (cut short?)`;
}

/** What follows an answer's bytes as they arrive: its frames (MP3, ADTS), pages (Ogg), WAV data size or FLAC frames. */
export type AudioWalker = FrameWalker | WavWalker | FlacWalker;

/** The walker of `format`; none for a format whose bytes say nothing of being whole (pcm). */
export function walkerFor(format: AudioFormat): AudioWalker | undefined {
  return FrameWalker.for(format) ?? (format === 'wav' ? new WavWalker() : format === 'flac' ? new FlacWalker() : undefined);
}

/** Why the answer `walker` followed is not whole (junk after Ogg pages, cut short), or undefined. */
export function unwholeReason(walker: AudioWalker, format: AudioFormat): string | undefined {
  if (walker instanceof FrameWalker && walker.junkAfterPages) return OGG_JUNK;
  return walker.cutShort ? cutShortReason(format) : undefined;
}

/** Why a whole answer is not whole, or undefined when nothing says it is cut short. */
export function truncationOf(bytes: Uint8Array, format: AudioFormat): string | undefined {
  if (format === 'pcm') return bytes.byteLength % 2 === 0 ? undefined : 'pcm with an odd number of bytes (cut short?)';
  const walker = walkerFor(format);
  if (!walker) return undefined;
  walker.push(bytes);
  return unwholeReason(walker, format);
}

/**
 * True when the bytes begin with `frames` whole MP3 or ADTS frames, each starting exactly where
 * the one before ends (or the bytes end with fewer, all whole). One frame header can happen in
 * raw samples by chance; a chain of them at the lengths their headers give cannot.
 */
export function startsWithFrameChain(bytes: Uint8Array, format: 'mp3' | 'aac', frames: number): boolean {
  const reader = READERS[format]!;
  let offset = 0;
  for (let count = 0; count < frames && offset < bytes.length; count += 1) {
    const read = reader(bytes, offset, false);
    if (read <= 0 || offset + read > bytes.length) return false;
    offset += read;
  }
  return offset > 0;
}

/**
 * How many of `bytes` (which start at a frame) are whole frames: the rest is a frame still being
 * made. Bytes that are not frames where one should start are all counted, so nothing is held for good.
 * `streamStart`: the bytes are the stream's first, where an MP3 may begin with an ID3 tag.
 */
export function wholeFramesLength(bytes: Uint8Array, format: 'mp3' | 'aac' | 'opus', streamStart = false): number {
  const reader = READERS[format]!;
  let offset = 0;
  while (offset < bytes.length) {
    const read = reader(bytes, offset, streamStart && offset === 0);
    if (read === NOT_A_FRAME) return bytes.length;
    if (read < 0 || offset + read > bytes.length) return offset;
    offset += read;
  }
  return offset;
}
