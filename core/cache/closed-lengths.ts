import type { AudioFormat } from '../audio/audio-format';
import { parseWavHeader } from '../audio/decode/wav-decoder';

/**
 * A streamed WAV or FLAC says "length unknown" in its header: the stream could not seek back to
 * write it. Stored, it is also a file hit's download, and a file states its length (players show
 * it, and seek by it): written in place, once the stream has ended. `durationSeconds`: the
 * encoder's count of the stream's samples, over its rate (a FLAC needs it; a WAV's bytes say it).
 */
export function closeStreamedLengths(audio: Uint8Array, format: AudioFormat, durationSeconds: number | undefined): void {
  if (format === 'wav') closeWavSizes(audio);
  else if (format === 'flac' && durationSeconds !== undefined) closeFlacLength(audio, durationSeconds);
}

/** RIFF and data sizes of 0xFFFFFFFF ("until the end") become the exact ones. */
function closeWavSizes(audio: Uint8Array): void {
  let info: ReturnType<typeof parseWavHeader>;
  try {
    info = parseWavHeader(audio);
  } catch {
    return; // a WAV the gateway does not decode (mu-law, ...): stored as it came
  }
  if (!info?.openEnded) return;
  const view = new DataView(audio.buffer, audio.byteOffset, audio.byteLength);
  view.setUint32(4, audio.byteLength - 8, true);
  view.setUint32(info.dataOffset - 4, audio.byteLength - info.dataOffset, true);
}

/** Where STREAMINFO's fields start: after `fLaC` and its metadata block header. */
const STREAMINFO = 8;
const STREAMINFO_BLOCK_TYPE = 0;

/**
 * STREAMINFO's 36-bit total of samples, 0 for "unknown", gets the stream's own: the low 4 bits
 * of byte 13 of the block and the 4 bytes after it, counted at the 20-bit rate of bytes 10-12.
 * The MD5 stays zero, which the format defines as "not computed".
 */
function closeFlacLength(audio: Uint8Array, durationSeconds: number): void {
  if (audio.length < STREAMINFO + 18 || String.fromCharCode(audio[0], audio[1], audio[2], audio[3]) !== 'fLaC') return;
  if ((audio[4] & 0x7f) !== STREAMINFO_BLOCK_TYPE) return;
  const view = new DataView(audio.buffer, audio.byteOffset, audio.byteLength);
  const totalAt = STREAMINFO + 13;
  const known = (audio[totalAt] & 0x0f) * 2 ** 32 + view.getUint32(totalAt + 1);
  if (known !== 0) return;
  const rate = (audio[STREAMINFO + 10] << 12) | (audio[STREAMINFO + 11] << 4) | (audio[STREAMINFO + 12] >> 4);
  const total = Math.round(durationSeconds * rate);
  if (rate === 0 || total <= 0 || total >= 2 ** 36) return;
  audio[totalAt] = (audio[totalAt] & 0xf0) | Math.floor(total / 2 ** 32);
  view.setUint32(totalAt + 1, total % 2 ** 32);
}
