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
/**
 * The pre-skip of the OpusHead in the Ogg page at `offset` (its first page), or undefined when
 * that page holds no whole OpusHead (another codec, or too few bytes yet).
 */
export function opusHeadPreSkip(bytes: Uint8Array, offset: number): number | undefined {
  if (bytes.length < offset + PAGE_HEADER_BYTES) return undefined;
  const body = offset + PAGE_HEADER_BYTES + bytes[offset + 26];
  if (bytes.length < body + 12) return undefined;
  for (let index = 0; index < OPUS_HEAD.length; index += 1) if (bytes[body + index] !== OPUS_HEAD.charCodeAt(index)) return undefined;
  return bytes[body + 10] | (bytes[body + 11] << 8);
}

export function oggOpusPageSeconds(): FrameSeconds {
  let opus: boolean | undefined;
  let preSkip = 0;
  let counted = 0;
  return (bytes, offset) => {
    if (opus === undefined) {
      const head = opusHeadPreSkip(bytes, offset);
      opus = head !== undefined;
      preSkip = head ?? 0;
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
