import { concatBytes } from '../concat';
import { bitratesOf, mp3FrameLength, readMp3Header } from '../mp3-header';

/**
 * Samples LAME puts before the signal (it declares 576 in its own tags). Decoders add their
 * own 529-sample delay to it: the first sample of speech is decoded sample 576 + 529.
 */
export const LAME_ENCODER_DELAY = 576;

/**
 * The Xing/Info tag: id, flags, frame count, byte count, quality. No 100-byte seek table (flag
 * 0x4): a constant-bitrate file seeks linearly without one, and leaving it out lets the frame keep
 * the stream's own bitrate (LAME's tag does not fit a 48 kb/s MPEG-2 frame and raises it), so
 * players that guess the length from the first frame's bitrate still guess right.
 */
const TAG_BYTES = 4 + 4 + 4 + 4 + 4;
const FLAG_FRAMES = 0x1;
const FLAG_BYTES = 0x2;
const FLAG_QUALITY = 0x8;
/** The LAME extension after the tag ("Mp3 Info Tag rev 1"); its last 2 bytes are a CRC of the frame up to them. */
const LAME_EXTENSION_BYTES = 36;
/** The encoder that made the audio (wasm-media-encoders builds LAME 3.100): decoders read the delays only after "LAME". */
const ENCODER_VERSION = 'LAME3.100';
/** Delay and padding have 12 bits each. */
const MAX_TWELVE_BITS = 4095;

/**
 * Puts a Xing/Info frame before a whole LAME MP3, declaring its frame and byte counts and
 * LAME's encoder delay and end padding, so decoders (ffmpeg, browsers, mpg123) drop the
 * ~50 ms of silence at the start and the padding at the end, and players show the real length.
 * `samples` is how many samples went into the encoder. The frame holds no audio (its side
 * information is zero). Bytes that are not a clean chain of frames are returned unchanged:
 * a tag that miscounts is worse than none.
 */
export function withInfoFrame(mp3: Uint8Array, samples: number): Uint8Array {
  const first = readMp3Header(mp3, 0);
  if (!first) return mp3;
  let frames = 0;
  let constant = true;
  for (let offset = 0; offset < mp3.length; frames += 1) {
    const header = readMp3Header(mp3, offset);
    if (!header || header.sampleRate !== first.sampleRate || offset + header.length > mp3.length) return mp3;
    constant &&= mp3[offset + 2] >> 4 === mp3[2] >> 4;
    offset += header.length;
  }
  const padding = frames * first.samplesPerFrame - LAME_ENCODER_DELAY - samples;
  if (padding < 0 || padding > MAX_TWELVE_BITS) return mp3;

  // The tag follows the (zeroed) side information, whose size depends on version and channels.
  const sideInformation = first.version === 3 ? (first.mono ? 17 : 32) : first.mono ? 9 : 17;
  const tagOffset = 4 + sideInformation;
  const needed = tagOffset + TAG_BYTES + LAME_EXTENSION_BYTES;
  const bitrates = bitratesOf(first.version);
  // The stream's bitrate, raised only if the frame would be too small for the tag (very low rates).
  let bitrateIndex = mp3[2] >> 4;
  while (bitrateIndex < bitrates.length - 1 && mp3FrameLength(first.samplesPerFrame, bitrates[bitrateIndex], first.sampleRate, false) < needed) bitrateIndex += 1;
  const frameLength = mp3FrameLength(first.samplesPerFrame, bitrates[bitrateIndex], first.sampleRate, false);
  if (frameLength < needed) return mp3;

  const frame = new Uint8Array(frameLength);
  const view = new DataView(frame.buffer);
  frame[0] = 0xff;
  frame[1] = mp3[1] | 0x01; // no CRC after the header
  frame[2] = (bitrateIndex << 4) | (mp3[2] & 0x0d); // same rate and private bit, no padding slot
  frame[3] = mp3[3];
  const totalBytes = frameLength + mp3.length;
  writeAscii(frame, tagOffset, constant ? 'Info' : 'Xing');
  // Decoders read the fields the flags announce one after the other, then the LAME extension.
  view.setUint32(tagOffset + 4, FLAG_FRAMES | FLAG_BYTES | FLAG_QUALITY);
  view.setUint32(tagOffset + 8, frames); // the audio frames: this one is not counted
  view.setUint32(tagOffset + 12, totalBytes);
  view.setUint32(tagOffset + 16, 0); // quality: not known

  const lame = tagOffset + TAG_BYTES;
  writeAscii(frame, lame, ENCODER_VERSION);
  frame[lame + 9] = constant ? 0x01 : 0x00; // tag revision 0; VBR method 1 = constant bitrate, 0 = unknown
  frame[lame + 20] = Math.min(255, bitrates[mp3[2] >> 4]);
  frame[lame + 21] = LAME_ENCODER_DELAY >> 4;
  frame[lame + 22] = ((LAME_ENCODER_DELAY & 0x0f) << 4) | (padding >> 8);
  frame[lame + 23] = padding & 0xff;
  view.setUint32(lame + 28, totalBytes);
  view.setUint16(lame + 32, crc16(mp3, 0, mp3.length));
  view.setUint16(lame + 34, crc16(frame, 0, lame + 34));
  return concatBytes([frame, mp3]);
}

function writeAscii(bytes: Uint8Array, offset: number, text: string): void {
  for (let index = 0; index < text.length; index += 1) bytes[offset + index] = text.charCodeAt(index);
}

/** CRC-16 as the Info tag uses it (polynomial 0x8005, reflected, starting at 0). */
function crc16(bytes: Uint8Array, start: number, end: number): number {
  let crc = 0;
  for (let index = start; index < end; index += 1) {
    crc ^= bytes[index];
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}
