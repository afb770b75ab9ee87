/** ADTS (AAC) frame header facts (ISO 14496-3), shared by the frame walker and the duration reader. */

const ADTS_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

/** The sample rate of the ADTS frame at `offset`; undefined for a reserved index. */
export function adtsSampleRate(bytes: Uint8Array, offset: number): number | undefined {
  return ADTS_RATES[(bytes[offset + 2] >> 2) & 0x0f];
}

/** Its samples: 1024 per raw data block, one to four blocks a frame. */
export function adtsFrameSamples(bytes: Uint8Array, offset: number): number {
  return 1024 * ((bytes[offset + 6] & 0x03) + 1);
}

/** Its 13-bit length in bytes, header included. */
export function adtsFrameLength(bytes: Uint8Array, offset: number): number {
  return ((bytes[offset + 3] & 0x03) << 11) | (bytes[offset + 4] << 3) | (bytes[offset + 5] >> 5);
}
