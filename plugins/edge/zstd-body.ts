import * as zlib from 'node:zlib';

/** The four bytes every zstd frame starts with (0xFD2FB528, little-endian). */
const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd];

/** Node 22.15+ and 23.8+ decode zstd in `node:zlib`; Node 20 does not. */
const zstdDecompressSync = (zlib as unknown as { zstdDecompressSync?: (input: Uint8Array) => Buffer }).zstdDecompressSync;

/**
 * Whether a body is still zstd-compressed. Node 20's fetch passes a `Content-Encoding: zstd`
 * body through undecoded (it knows only gzip, deflate and br), so the bytes tell, not the header.
 */
export function isZstdFrame(body: Uint8Array): boolean {
  return ZSTD_MAGIC.every((byte, index) => body[index] === byte);
}

/** Whether this Node can decode zstd. */
export const canDecodeZstd = typeof zstdDecompressSync === 'function';

/** The decoded bytes of a zstd body (call only when `canDecodeZstd`). */
export function decodeZstd(body: Uint8Array): Uint8Array {
  if (!zstdDecompressSync) throw new Error('zstd is not available in this Node version');
  return new Uint8Array(zstdDecompressSync(body));
}
