import type { AudioFormat } from './audio-format';

/** Whether the bytes at `offset` spell `text` (ASCII), compared in place: this runs on every answer. */
function spells(bytes: Uint8Array, offset: number, text: string): boolean {
  if (bytes.length < offset + text.length) return false;
  for (let index = 0; index < text.length; index += 1) if (bytes[offset + index] !== text.charCodeAt(index)) return false;
  return true;
}

/** An MPEG audio frame header: 11 sync bits, a valid version, layer III, valid bitrate and rate. */
function isMp3FrameHeader(bytes: Uint8Array, offset: number): boolean {
  if (bytes.length < offset + 4) return false;
  const [first, second, third] = [bytes[offset], bytes[offset + 1], bytes[offset + 2]];
  const version = (second >> 3) & 0b11;
  const layer = (second >> 1) & 0b11;
  const bitrateIndex = third >> 4;
  const rateIndex = (third >> 2) & 0b11;
  return first === 0xff && (second & 0xe0) === 0xe0 && version !== 0b01 && layer === 0b01 && bitrateIndex !== 0 && bitrateIndex !== 0xf && rateIndex !== 0b11;
}

/** ADTS sync: 12 one-bits, then layer 00 (MP3 frames have layer 01, so the two never match). */
function hasAdtsSync(bytes: Uint8Array, offset: number): boolean {
  return bytes[offset] === 0xff && (bytes[offset + 1] & 0xf6) === 0xf0;
}

/**
 * An ADTS header: the sync with layer 00, a valid sampling-frequency index, a frame length
 * that covers at least its header and, when the bytes reach that far, a next frame after it.
 */
function isAdtsHeader(bytes: Uint8Array, offset: number): boolean {
  if (bytes.length < offset + 7 || !hasAdtsSync(bytes, offset)) return false;
  if (((bytes[offset + 2] >> 2) & 0x0f) >= 13) return false;
  const frameLength = ((bytes[offset + 3] & 0x03) << 11) | (bytes[offset + 4] << 3) | (bytes[offset + 5] >> 5);
  const headerLength = bytes[offset + 1] & 0x01 ? 7 : 9;
  if (frameLength < headerLength) return false;
  const next = offset + frameLength;
  return bytes.length < next + 2 || hasAdtsSync(bytes, next);
}

/** Length of an ID3v2 tag at the start, so the first frame after it can be checked. */
function id3Length(bytes: Uint8Array): number {
  if (!spells(bytes, 0, 'ID3') || bytes.length < 10) return 0;
  const size = ((bytes[6] & 0x7f) << 21) | ((bytes[7] & 0x7f) << 14) | ((bytes[8] & 0x7f) << 7) | (bytes[9] & 0x7f);
  const footer = bytes[5] & 0x10 ? 10 : 0;
  return 10 + size + footer;
}

/**
 * Names the container/codec of `bytes` from magic numbers, or `undefined` when unknown.
 * Raw `pcm` has no signature, so it is never returned.
 */
export function sniffAudioFormat(bytes: Uint8Array): AudioFormat | undefined {
  if (spells(bytes, 0, 'RIFF') && spells(bytes, 8, 'WAVE')) return 'wav';
  if (spells(bytes, 0, 'fLaC')) return 'flac';
  // The first Ogg page carries the codec's identification header right after the 27+N byte page header.
  if (spells(bytes, 0, 'OggS') && bytes.length >= 27) {
    const bodyStart = 27 + bytes[26];
    if (spells(bytes, bodyStart, 'OpusHead')) return 'opus';
    return undefined;
  }
  const tagEnd = id3Length(bytes);
  if (tagEnd > 0) {
    // An ID3 tag most often precedes MP3; accept it when the frame after it is unknown or MPEG.
    return isAdtsHeader(bytes, tagEnd) ? 'aac' : 'mp3';
  }
  if (isMp3FrameHeader(bytes, 0)) return 'mp3';
  if (isAdtsHeader(bytes, 0)) return 'aac';
  return undefined;
}
