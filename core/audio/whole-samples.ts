/**
 * Raw 16-bit pcm taken in whole samples: a piece that ends in the middle of a sample keeps its
 * last byte for the next one. A provider's stream is cut where its network reads fall: a decoder
 * would misread every sample after an odd cut, and an SSE delta that a client decodes on its own
 * would be a RangeError for an Int16Array.
 */
export class WholeSamples {
  private carry?: number;

  /** Whether a half sample is still held (at the end of a stream: it was cut short). */
  get holding(): boolean {
    return this.carry !== undefined;
  }

  /** The whole samples of `piece`, after the byte held from the one before; may be empty. */
  take(piece: Uint8Array): Uint8Array {
    let bytes = piece;
    if (this.carry !== undefined && piece.byteLength > 0) {
      bytes = new Uint8Array(piece.byteLength + 1);
      bytes[0] = this.carry;
      bytes.set(piece, 1);
      this.carry = undefined;
    }
    if (bytes.byteLength % 2 === 0) return bytes;
    this.carry = bytes[bytes.byteLength - 1];
    return bytes.subarray(0, bytes.byteLength - 1);
  }
}
