/** The two header packets every Ogg Opus stream starts with (RFC 7845, section 5). */

/** libopus's encoder delay at 48 kHz (2.5 ms look-ahead + 4 ms), which decoders skip. */
export const OPUS_PRE_SKIP = 312;

export function opusHead(inputRate: number): Uint8Array {
  const head = new Uint8Array(19);
  const view = new DataView(head.buffer);
  head.set(new TextEncoder().encode('OpusHead'));
  head[8] = 1; // version
  head[9] = 1; // channels
  view.setUint16(10, OPUS_PRE_SKIP, true);
  view.setUint32(12, inputRate, true);
  view.setInt16(16, 0, true); // output gain
  head[18] = 0; // channel mapping family: mono/stereo
  return head;
}

export function opusTags(): Uint8Array {
  const vendor = new TextEncoder().encode('tts-gateway');
  const tags = new Uint8Array(8 + 4 + vendor.length + 4);
  const view = new DataView(tags.buffer);
  tags.set(new TextEncoder().encode('OpusTags'));
  view.setUint32(8, vendor.length, true);
  tags.set(vendor, 12);
  view.setUint32(12 + vendor.length, 0, true); // no user comments
  return tags;
}
