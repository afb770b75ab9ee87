import { expect } from 'chai';
import { FlacWalker } from '../../../core/audio/flac-walker';

/** CRC-8 of a FLAC frame header (polynomial 0x07). */
function crc8(bytes: readonly number[]): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

/** A number in FLAC's UTF-8-like coding (up to 36 bits). */
function coded(value: number): number[] {
  if (value < 0x80) return [value];
  const bytes: number[] = [];
  let rest = value;
  let limit = 0x40;
  while (rest >= limit || bytes.length === 0) {
    bytes.unshift(0x80 | (rest & 0x3f));
    rest = Math.floor(rest / 64);
    limit >>= 1;
  }
  const lead = (0xff << (7 - bytes.length)) & 0xff;
  return [lead | rest, ...bytes];
}

/** A variable-block-size frame header: 16-bit block size after the number, rate from STREAMINFO, 16-bit mono. */
function variableHeader(firstSample: number, blockSize: number): number[] {
  const header = [0xff, 0xf9, 0x70, 0x08, ...coded(firstSample), (blockSize - 1) >> 8, (blockSize - 1) & 0xff];
  return [...header, crc8(header)];
}

/** `fLaC` and a last-block STREAMINFO: 16 kHz, mono, 16 bits, `total` samples. */
function streamInfo(total: number): number[] {
  const info = new Array<number>(34).fill(0);
  info[10] = 16_000 >> 12;
  info[11] = (16_000 >> 4) & 0xff;
  info[12] = ((16_000 & 0x0f) << 4) | (0 << 1) | (15 >> 4);
  info[13] = ((15 & 0x0f) << 4) | Math.floor(total / 2 ** 32);
  info[14] = (total >>> 24) & 0xff;
  info[15] = (total >>> 16) & 0xff;
  info[16] = (total >>> 8) & 0xff;
  info[17] = total & 0xff;
  return [0x66, 0x4c, 0x61, 0x43, 0x80, 0, 0, 34, ...info];
}

/**
 * FLAC frames say no length: the walker finds each header by its sync and CRC-8, and counts it
 * only when its number is the next one's. A variable-block-size stream numbers its samples.
 */
describe('core/audio FlacWalker on variable block sizes and look-alike headers', () => {
  it('counts each frame once, by its first sample number, and not a valid-looking header inside a frame', () => {
    const sizes = [4096, 1000, 4608, 77, 4096];
    const bytes: number[] = [...streamInfo(0)];
    let sample = 0;
    for (const size of sizes) {
      bytes.push(...variableHeader(sample, size));
      // The frame's body holds a header with a good CRC but another number: bytes inside a frame.
      bytes.push(0x12, 0x34, ...variableHeader(sample + 5, 4096), 0x56);
      sample += size;
    }
    const total = sizes.reduce((sum, size) => sum + size, 0);
    for (const pieceSize of [1, 3, 16, bytes.length]) {
      const walker = new FlacWalker();
      for (let start = 0; start < bytes.length; start += pieceSize) walker.push(Uint8Array.from(bytes.slice(start, start + pieceSize)));
      expect(walker.seconds, `in ${pieceSize}-byte pieces`).to.equal(total / 16_000);
    }
  });

  it('reads sample numbers of every coded length (1 to 5 bytes: past 2^21 samples)', () => {
    const bytes: number[] = [...streamInfo(0)];
    for (let frame = 0; frame < 600; frame += 1) bytes.push(...variableHeader(frame * 4096, 4096), 0x00, 0x11);
    expect(coded(599 * 4096)).to.have.length(5);
    const walker = new FlacWalker();
    walker.push(Uint8Array.from(bytes));
    expect(walker.seconds).to.equal((600 * 4096) / 16_000);
  });
});
