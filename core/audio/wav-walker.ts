import { concatBytes } from './concat';
import { parseWavHeader, wavFrameBytes, type WavInfo } from './decode/wav-decoder';

/**
 * A data size from 2 GiB up is a placeholder some streaming writers put in place of 0xFFFFFFFF
 * ("until the end"): hours of speech, never a real answer's size. It is not held against the bytes.
 */
const PLACEHOLDER_SIZE = 0x8000_0000;

/**
 * Follows a WAV answer as its bytes arrive, to tell at the end whether its data stopped before
 * the size its header gives: an answer cut short (FrameWalker's counterpart for WAV). A header
 * that cannot be read, or an open-ended one, gives no verdict.
 */
export class WavWalker {
  private header: Uint8Array = new Uint8Array(0);
  private info?: WavInfo;
  private bytesSeen = 0;
  private lost = false;

  push(chunk: Uint8Array): void {
    this.bytesSeen += chunk.length;
    if (this.info || this.lost) return;
    this.header = concatBytes([this.header, chunk]);
    try {
      this.info = parseWavHeader(this.header);
    } catch {
      this.lost = true;
    }
    if (this.info || this.lost) this.header = new Uint8Array(0);
  }

  /** Seconds of audio in the data so far: its bytes (up to the header's size) by the header's byte rate; 0 before the header is read. */
  get seconds(): number {
    const info = this.info;
    if (!info) return 0;
    const byteRate = info.sampleRate * wavFrameBytes(info);
    const data = Math.max(0, this.bytesSeen - info.dataOffset);
    // A placeholder or open-ended size does not bound the data: the bytes that came count.
    const bounded = info.openEnded || info.dataBytes >= PLACEHOLDER_SIZE ? data : Math.min(data, info.dataBytes);
    return byteRate > 0 ? bounded / byteRate : 0;
  }

  /** True when the data so far is shorter than the header's exact size. */
  get cutShort(): boolean {
    const info = this.info;
    if (!info || info.openEnded || info.dataBytes >= PLACEHOLDER_SIZE) return false;
    return this.bytesSeen - info.dataOffset < info.dataBytes;
  }
}
