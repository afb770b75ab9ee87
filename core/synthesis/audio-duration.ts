import type { AudioFormat } from '../audio/audio-format';
import { adtsFrameLength, adtsFrameSamples, adtsSampleRate } from '../audio/adts-header';
import { readWavInfo, wavFrameBytes } from '../audio/decode/wav-decoder';
import { describesTheFile, readMp3Header } from '../audio/mp3-header';
import { opusHeadPreSkip } from '../audio/ogg-opus-seconds';
import { FlacWalker } from '../audio/flac-walker';

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
        return info.dataBytes / (info.sampleRate * wavFrameBytes(info));
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

/** Whether the bytes at `offset` spell `text`, compared in place: a string made of them (a spread into fromCharCode) showed in a request's profile. */
function spells(bytes: Uint8Array, offset: number, text: string): boolean {
  if (offset + text.length > bytes.length) return false;
  for (let index = 0; index < text.length; index += 1) if (bytes[offset + index] !== text.charCodeAt(index)) return false;
  return true;
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
  for (let header = readMp3Header(bytes, offset); header; header = readMp3Header(bytes, offset)) {
    if (!(rate === 0 && describesTheFile(bytes, offset, header.length))) samples += header.samplesPerFrame;
    rate = header.sampleRate;
    offset += header.length;
  }
  return rate > 0 ? samples / rate : undefined;
}

/**
 * STREAMINFO: 20-bit sample rate, then a 36-bit total of samples. A total of 0 ("unknown", as a
 * streaming encoder writes it) is counted from the frame headers.
 */
function flacDuration(bytes: Uint8Array): number | undefined {
  if (bytes.length < 26 || !spells(bytes, 0, 'fLaC')) return undefined;
  const rate = (bytes[18] << 12) | (bytes[19] << 4) | (bytes[20] >> 4);
  const total = (bytes[21] & 0x0f) * 2 ** 32 + new DataView(bytes.buffer, bytes.byteOffset + 22, 4).getUint32(0);
  if (rate === 0) return undefined;
  if (total > 0) return total / rate;
  const frames = new FlacWalker();
  frames.push(bytes);
  return frames.seconds > 0 ? frames.seconds : undefined;
}

/** The last Ogg page's granule position, less the pre-skip, at Opus's fixed 48 kHz. */
function opusDuration(bytes: Uint8Array): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const preSkip = opusHeadPreSkip(bytes, 0);
  if (preSkip === undefined) return undefined;
  for (let offset = bytes.length - 27; offset >= 0; offset -= 1) {
    if (spells(bytes, offset, 'OggS')) {
      const granule = Number(view.getBigInt64(offset + 6, true));
      return granule > preSkip ? (granule - preSkip) / 48_000 : undefined;
    }
  }
  return undefined;
}

function adtsDuration(bytes: Uint8Array): number | undefined {
  let offset = 0;
  let samples = 0;
  let rate = 0;
  while (offset + 7 <= bytes.length && bytes[offset] === 0xff && (bytes[offset + 1] & 0xf6) === 0xf0) {
    rate = adtsSampleRate(bytes, offset) ?? 0;
    const length = adtsFrameLength(bytes, offset);
    if (rate === 0 || length < 7) break;
    samples += adtsFrameSamples(bytes, offset);
    offset += length;
  }
  return rate > 0 && samples > 0 ? samples / rate : undefined;
}
