import type { AudioFormat } from '../audio/audio-format';
import { wholeFramesLength } from '../audio/frame-walker';
import { parseWavHeader, wavFrameBytes } from '../audio/decode/wav-decoder';
import type { StreamProgress } from '../synthesis/audio-pieces';

/**
 * The most bytes of a cached answer streamed as one piece. An Ogg page (at most 65,307 bytes), an
 * ADTS frame (8,191) and an MP3 frame (under 3,000) always fit in one; an even count keeps pcm
 * (16-bit mono) in whole samples.
 */
const PIECE_BYTES = 64 * 1024;

/** Where a WAV's samples start, and the bytes of one sample of every channel. */
interface WavLayout {
  readonly dataOffset: number;
  readonly frameBytes: number;
}

/** A WAV the gateway reads: its layout; else (mu-law, a header it cannot read) none, cut at the size alone. */
function wavLayoutOf(bytes: Uint8Array): WavLayout | undefined {
  try {
    const info = parseWavHeader(bytes);
    return info && { dataOffset: info.dataOffset, frameBytes: wavFrameBytes(info) };
  } catch {
    return undefined;
  }
}

/**
 * Where the piece that starts at `start` ends. MP3, ADTS and Ogg pieces end where a frame (page)
 * ends, as a live stream's pieces do, and WAV pieces on a whole sample of every channel after the
 * header: an SSE client decodes each delta on its own, and a frame or sample cut in two is noise
 * in both. Bytes that are not frames are cut at the size alone.
 */
function pieceEnd(bytes: Uint8Array, start: number, format: AudioFormat, wav: WavLayout | undefined): number {
  const limit = Math.min(bytes.byteLength, start + PIECE_BYTES);
  if (wav) {
    if (limit === bytes.byteLength || limit <= wav.dataOffset) return limit;
    const whole = wav.dataOffset + Math.floor((limit - wav.dataOffset) / wav.frameBytes) * wav.frameBytes;
    return whole > start ? whole : limit;
  }
  if (format !== 'mp3' && format !== 'aac' && format !== 'opus') return limit;
  const whole = wholeFramesLength(bytes.subarray(start, limit), format, start === 0);
  // None whole: the file ends inside its last frame (it was kept so), which goes as it is.
  return whole > 0 ? start + whole : limit;
}

/** A stored answer as a stream: its bytes in pieces, its seconds counted as they go (as a live stream's are, for usage). */
export function streamOf(bytes: Uint8Array, format: AudioFormat, sampleRate: number | undefined, durationSeconds: number | undefined): { chunks: AsyncIterable<Uint8Array>; progress: StreamProgress } {
  const progress: StreamProgress = { bytes: 0, ...(sampleRate !== undefined ? { sampleRate } : {}) };
  const wav = format === 'wav' ? wavLayoutOf(bytes) : undefined;
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (let offset = 0; offset < bytes.byteLength; ) {
      const end = pieceEnd(bytes, offset, format, wav);
      const piece = bytes.subarray(offset, end);
      offset = end;
      progress.bytes += piece.byteLength;
      if (durationSeconds !== undefined) progress.durationSeconds = progress.bytes === bytes.byteLength ? durationSeconds : (durationSeconds * progress.bytes) / bytes.byteLength;
      yield piece;
    }
  }
  return { chunks: chunks(), progress };
}
