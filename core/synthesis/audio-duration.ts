import type { AudioFormat } from '../audio/audio-format';
import { readWavInfo } from '../audio/decode/wav-decoder';

/**
 * Seconds of audio in an encoded file, read from its headers (no decoding), for usage figures.
 * Undefined when the bytes do not parse as the format says (or for `aac` without ADTS).
 */
export function audioDurationSeconds(bytes: Uint8Array, format: AudioFormat, sampleRate?: number): number | undefined {
  try {
    switch (format) {
      case 'pcm':
        return sampleRate ? bytes.byteLength / 2 / sampleRate : undefined;
      case 'wav': {
        const info = readWavInfo(bytes);
        return info.dataBytes / (info.sampleRate * info.channels * (info.bitsPerSample / 8));
      }
      case 'mp3':
        return mp3Duration(bytes);
      case 'flac':
        return flacDuration(bytes);
      case 'opus':
        return opusDuration(bytes);
      case 'aac':
        return adtsDuration(bytes);
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}

const MP3_BITRATES_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MP3_BITRATES_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const MP3_RATES: Readonly<Record<number, readonly number[]>> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

/** Whether the bytes at `offset` spell `text`, compared in place: a string made of them (a spread into fromCharCode) showed in a request's profile. */
function spells(bytes: Uint8Array, offset: number, text: string): boolean {
  if (offset + text.length > bytes.length) return false;
  for (let index = 0; index < text.length; index += 1) if (bytes[offset + index] !== text.charCodeAt(index)) return false;
  return true;
}

/** Xing and Info, the tags of a frame that describes the file instead of carrying audio. */
const XING = [0x58, 0x69, 0x6e, 0x67];
const INFO = [0x49, 0x6e, 0x66, 0x6f];

/** Whether `tag` occurs in bytes `start` to `end` (exclusive): compared in place, no string made per frame. */
function holdsTag(bytes: Uint8Array, start: number, end: number, tag: readonly number[]): boolean {
  const last = Math.min(end, bytes.length) - tag.length;
  outer: for (let offset = start; offset <= last; offset += 1) {
    for (let index = 0; index < tag.length; index += 1) if (bytes[offset + index] !== tag[index]) continue outer;
    return true;
  }
  return false;
}

function id3End(bytes: Uint8Array): number {
  if (bytes.length < 10 || !spells(bytes, 0, 'ID3')) return 0;
  return 10 + (((bytes[6] & 0x7f) << 21) | ((bytes[7] & 0x7f) << 14) | ((bytes[8] & 0x7f) << 7) | (bytes[9] & 0x7f));
}

/** Walks the MPEG layer III frames; a leading Xing/Info frame carries no audio. */
function mp3Duration(bytes: Uint8Array): number | undefined {
  let offset = id3End(bytes);
  let samples = 0;
  let rate = 0;
  let first = true;
  while (offset + 4 <= bytes.length) {
    const version = (bytes[offset + 1] >> 3) & 0b11;
    const layer = (bytes[offset + 1] >> 1) & 0b11;
    if (bytes[offset] !== 0xff || (bytes[offset + 1] & 0xe0) !== 0xe0 || version === 1 || layer !== 1) break;
    const bitrate = (version === 3 ? MP3_BITRATES_V1 : MP3_BITRATES_V2)[bytes[offset + 2] >> 4];
    const frameRate = MP3_RATES[version]?.[(bytes[offset + 2] >> 2) & 0b11];
    if (!bitrate || !frameRate) break;
    const padding = (bytes[offset + 2] >> 1) & 1;
    const perFrame = version === 3 ? 1152 : 576;
    const length = Math.floor(((perFrame / 8) * bitrate * 1000) / frameRate) + padding;
    // Only the first frame can be a Xing/Info frame.
    const tagEnd = offset + 4 + Math.min(length, 40);
    if (!(first && (holdsTag(bytes, offset + 4, tagEnd, XING) || holdsTag(bytes, offset + 4, tagEnd, INFO)))) samples += perFrame;
    rate = frameRate;
    first = false;
    offset += length;
  }
  return rate > 0 ? samples / rate : undefined;
}

/** STREAMINFO: 20-bit sample rate, then a 36-bit total of samples. */
function flacDuration(bytes: Uint8Array): number | undefined {
  if (bytes.length < 26 || !spells(bytes, 0, 'fLaC')) return undefined;
  const rate = (bytes[18] << 12) | (bytes[19] << 4) | (bytes[20] >> 4);
  const total = (bytes[21] & 0x0f) * 2 ** 32 + new DataView(bytes.buffer, bytes.byteOffset + 22, 4).getUint32(0);
  return rate > 0 && total > 0 ? total / rate : undefined;
}

/** The last Ogg page's granule position, less the pre-skip, at Opus's fixed 48 kHz. */
function opusDuration(bytes: Uint8Array): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const bodyStart = bytes.length >= 27 ? 27 + bytes[26] : 0;
  if (bodyStart === 0 || !spells(bytes, bodyStart, 'OpusHead')) return undefined;
  const preSkip = view.getUint16(bodyStart + 10, true);
  for (let offset = bytes.length - 27; offset >= 0; offset -= 1) {
    if (spells(bytes, offset, 'OggS')) {
      const granule = Number(view.getBigInt64(offset + 6, true));
      return granule > preSkip ? (granule - preSkip) / 48_000 : undefined;
    }
  }
  return undefined;
}

const ADTS_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

function adtsDuration(bytes: Uint8Array): number | undefined {
  let offset = 0;
  let samples = 0;
  let rate = 0;
  while (offset + 7 <= bytes.length && bytes[offset] === 0xff && (bytes[offset + 1] & 0xf6) === 0xf0) {
    rate = ADTS_RATES[(bytes[offset + 2] >> 2) & 0x0f] ?? 0;
    const length = ((bytes[offset + 3] & 0x03) << 11) | (bytes[offset + 4] << 3) | (bytes[offset + 5] >> 5);
    if (rate === 0 || length < 7) break;
    samples += ((bytes[offset + 6] & 0x03) + 1) * 1024;
    offset += length;
  }
  return rate > 0 && samples > 0 ? samples / rate : undefined;
}
