/** FLAC frame header facts (RFC 9639 §9.1), read in place for the FLAC walker. */

/** The longest frame header: sync and codes (4), a 7-byte coded number, 2 + 2 bytes of block size and rate, the CRC-8. */
export const FLAC_HEADER_MAX = 16;
/** More bytes are needed to tell whether a frame header starts here. */
export const NEED_MORE = -1;
export const NOT_A_HEADER = 0;

/** CRC-8 (polynomial x^8 + x^2 + x + 1, initial 0) that closes every frame header. */
const CRC8 = new Uint8Array(256);
for (let value = 0; value < 256; value += 1) {
  let crc = value;
  for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  CRC8[value] = crc;
}

/** What the header just read says, kept in one object per walker (not one per frame). */
export interface FlacFrameFacts {
  /** Samples per channel in the frame. */
  blockSize: number;
  /** The frame's number (fixed block size) or its first sample's number (variable block size). */
  number: number;
  /** True when `number` counts samples (the blocking strategy bit). */
  variable: boolean;
}

/**
 * Reads the frame header that may start at `at` (where a 0xFF is) within `bytes[..end]`: its
 * length when it is one (its CRC-8 holds; `facts` filled in), NOT_A_HEADER, or NEED_MORE.
 * A FLAC frame says no length: the walker finds the next header by its sync and its CRC.
 */
export function readFlacFrameHeader(bytes: Uint8Array, at: number, end: number, facts: FlacFrameFacts): number {
  if (end - at < 2) return NEED_MORE;
  // 14 sync bits, a reserved 0, the blocking strategy bit.
  if ((bytes[at + 1] & 0xfe) !== 0xf8) return NOT_A_HEADER;
  if (end - at < 5) return NEED_MORE;
  const blockCode = bytes[at + 2] >> 4;
  const rateCode = bytes[at + 2] & 0x0f;
  const channels = bytes[at + 3] >> 4;
  const depthCode = (bytes[at + 3] >> 1) & 0b111;
  if (blockCode === 0 || rateCode === 15 || channels > 10 || depthCode === 3 || (bytes[at + 3] & 1) !== 0) return NOT_A_HEADER;
  // The coded number: UTF-8's scheme stretched to 36 bits (a 1- to 7-byte sequence).
  const first = bytes[at + 4];
  const extra = first < 0x80 ? 0 : first < 0xc0 ? -1 : first < 0xe0 ? 1 : first < 0xf0 ? 2 : first < 0xf8 ? 3 : first < 0xfc ? 4 : first < 0xfe ? 5 : first === 0xfe ? 6 : -1;
  if (extra < 0) return NOT_A_HEADER;
  let number = extra === 0 ? first : first & (0x3f >> extra);
  let position = at + 5;
  if (end < position + extra) return NEED_MORE;
  for (let index = 0; index < extra; index += 1, position += 1) {
    if ((bytes[position] & 0xc0) !== 0x80) return NOT_A_HEADER;
    number = number * 64 + (bytes[position] & 0x3f);
  }
  const sizeBytes = blockCode === 6 ? 1 : blockCode === 7 ? 2 : 0;
  const rateBytes = rateCode === 12 ? 1 : rateCode === 13 || rateCode === 14 ? 2 : 0;
  const crcAt = position + sizeBytes + rateBytes;
  if (end <= crcAt) return NEED_MORE;
  let crc = 0;
  for (let index = at; index < crcAt; index += 1) crc = CRC8[crc ^ bytes[index]];
  if (crc !== bytes[crcAt]) return NOT_A_HEADER;
  facts.blockSize = blockSizeOf(blockCode, bytes, position);
  facts.number = number;
  facts.variable = (bytes[at + 1] & 1) === 1;
  return crcAt + 1 - at;
}

/** Samples per channel from the 4-bit code, or from the 8/16 bits after the coded number (less one). */
function blockSizeOf(code: number, bytes: Uint8Array, after: number): number {
  if (code === 1) return 192;
  if (code <= 5) return 576 << (code - 2);
  if (code === 6) return bytes[after] + 1;
  if (code === 7) return ((bytes[after] << 8) | bytes[after + 1]) + 1;
  return 256 << (code - 8);
}
