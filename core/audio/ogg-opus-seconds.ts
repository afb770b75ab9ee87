import type { FrameSeconds } from './frame-walker';

/** Opus counts its granule positions in 48 kHz samples, whatever the rate it was made at (RFC 7845 §4). */
const OPUS_GRANULE_RATE = 48_000;
const PAGE_HEADER_BYTES = 27;
const OPUS_HEAD = 'OpusHead';

/**
 * Seconds of an Ogg Opus stream, page by page, for FrameWalker (which adds them up): a page says
 * no length, but its granule position is the samples decoded by its end, so each page adds what
 * its granule moved on. The first page's OpusHead gives the pre-skip (encoder priming, not audio),
 * taken off (RFC 7845 §4.2). An Ogg stream whose first page is not an OpusHead (Vorbis counts in
 * its own rate) counts nothing. The walker reads a page once its header and segment table have
 * come; a pass-through's first bytes (sniffed: an Ogg page and its OpusHead) hold the first page whole.
 */
export function oggOpusPageSeconds(): FrameSeconds {
  let opus: boolean | undefined;
  let preSkip = 0;
  let counted = 0;
  return (bytes, offset) => {
    const body = offset + PAGE_HEADER_BYTES + bytes[offset + 26];
    if (opus === undefined) {
      opus = bytes.length >= body + 12 && Buffer.from(bytes.buffer, bytes.byteOffset + body, 8).toString('latin1') === OPUS_HEAD;
      if (opus) preSkip = bytes[body + 10] | (bytes[body + 11] << 8);
      return 0;
    }
    if (!opus) return 0;
    const low = readUint32(bytes, offset + 6);
    const high = readUint32(bytes, offset + 10);
    // -1: no packet ends on this page.
    if (low === 0xffff_ffff && high === 0xffff_ffff) return 0;
    const seconds = Math.max(0, high * 2 ** 32 + low - preSkip) / OPUS_GRANULE_RATE;
    const added = seconds - counted;
    if (added <= 0) return 0;
    counted = seconds;
    return added;
  };
}

function readUint32(bytes: Uint8Array, at: number): number {
  return (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16)) + bytes[at + 3] * 0x100_0000;
}
