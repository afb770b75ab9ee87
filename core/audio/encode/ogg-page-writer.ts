/**
 * Builds Ogg pages (RFC 3533) around codec packets: the container that carries Opus
 * (RFC 7845). Each packet here fits in one page (Opus packets are < 1275 bytes per frame).
 */

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let index = 0; index < 256; index += 1) {
    let value = index << 24;
    for (let bit = 0; bit < 8; bit += 1) value = value & 0x80000000 ? (value << 1) ^ 0x04c11db7 : value << 1;
    table[index] = value >>> 0;
  }
  return table;
})();

/** Ogg's CRC-32: polynomial 0x04c11db7, no reflection, zero initial value. */
function oggCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]) >>> 0;
  return crc;
}

export const PAGE_FLAG_BEGIN = 0x02;
export const PAGE_FLAG_END = 0x04;

/** Numbers the pages of one logical Ogg stream; each page is returned as soon as it is built. */
export class OggPageWriter {
  private sequence = 0;

  constructor(private readonly serial: number) {}

  /** One page holding the given complete packets; `granule` is the position after them. */
  page(packets: readonly Uint8Array[], granule: bigint, flags = 0): Uint8Array {
    const lacing: number[] = [];
    for (const packet of packets) {
      for (let remaining = packet.length; ; remaining -= 255) {
        lacing.push(Math.min(remaining, 255));
        if (remaining < 255) break;
      }
    }
    if (lacing.length > 255) throw new RangeError('too many packets for one Ogg page');
    const bodyLength = packets.reduce((total, packet) => total + packet.length, 0);
    const page = new Uint8Array(27 + lacing.length + bodyLength);
    const view = new DataView(page.buffer);
    page.set([0x4f, 0x67, 0x67, 0x53]); // "OggS"
    page[4] = 0; // stream structure version
    page[5] = flags;
    view.setBigUint64(6, granule, true);
    view.setUint32(14, this.serial, true);
    view.setUint32(18, this.sequence, true);
    page[26] = lacing.length;
    page.set(lacing, 27);
    let offset = 27 + lacing.length;
    for (const packet of packets) {
      page.set(packet, offset);
      offset += packet.length;
    }
    view.setUint32(22, oggCrc(page), true);
    this.sequence += 1;
    return page;
  }
}
