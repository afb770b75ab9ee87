import { concatBytes } from './concat';
import { parseWavHeader, wavFrameBytes } from './decode/wav-decoder';

const NO_BYTES: Uint8Array = new Uint8Array(0);

/**
 * A WAV answer passed through taken in whole sample frames (one sample of every channel): its
 * header first, whole, then its data in multiples of the frame size, a piece's partial frame held
 * for the next one (as WholeSamples does for raw pcm). A provider's stream is cut where its network
 * reads fall, and an SSE client decodes each delta on its own. A header the gateway cannot read
 * (mu-law, junk) leaves the bytes as they came. Nothing is dropped: `rest` gives what is still held
 * at the end (a last partial frame, or a header that never completed), for the walker's verdict.
 */
export class WholeWavFrames {
  /** Bytes before the header could be read, held until it can. */
  private head: Uint8Array = NO_BYTES;
  /** Bytes of one sample frame; 0 until the header is read. */
  private frameBytes = 0;
  private lost = false;
  /** The partial frame at the end of the last piece. */
  private carry: Uint8Array = NO_BYTES;

  /** The whole header and whole frames of `piece`, after what was held; may be empty. */
  take(piece: Uint8Array): Uint8Array {
    if (this.lost) return piece;
    if (this.frameBytes === 0) return this.takeHeader(piece);
    let bytes = piece;
    if (this.carry.byteLength > 0) {
      bytes = concatBytes([this.carry, piece]);
      this.carry = NO_BYTES;
    }
    return this.wholeFrom(bytes, 0);
  }

  /** What is still held, once the stream has ended. */
  rest(): Uint8Array {
    const held = this.frameBytes === 0 ? this.head : this.carry;
    this.head = NO_BYTES;
    this.carry = NO_BYTES;
    return held;
  }

  private takeHeader(piece: Uint8Array): Uint8Array {
    const bytes = this.head.byteLength > 0 ? concatBytes([this.head, piece]) : piece;
    this.head = NO_BYTES;
    let frameBytes = 0;
    let dataOffset = 0;
    try {
      const info = parseWavHeader(bytes);
      if (!info) {
        this.head = bytes === piece ? piece.slice() : bytes;
        return NO_BYTES;
      }
      frameBytes = wavFrameBytes(info);
      dataOffset = info.dataOffset;
    } catch {
      // Not a header the gateway reads: the bytes go as they came.
    }
    if (frameBytes <= 0) {
      this.lost = true;
      return bytes;
    }
    this.frameBytes = frameBytes;
    return this.wholeFrom(bytes, dataOffset);
  }

  /** `bytes` up to the last whole frame of the data that starts at `dataStart`; the rest is held. */
  private wholeFrom(bytes: Uint8Array, dataStart: number): Uint8Array {
    const whole = bytes.byteLength - ((bytes.byteLength - dataStart) % this.frameBytes);
    // Copied: the source may reuse the buffer of a piece it has handed on.
    if (whole < bytes.byteLength) this.carry = bytes.slice(whole);
    return bytes.subarray(0, whole);
  }
}
