import { createHash, randomBytes } from 'node:crypto';

/** Seconds between the Windows file-time epoch (1601) and the Unix epoch (1970). */
const WINDOWS_EPOCH_OFFSET_SECONDS = 11_644_473_600;
const TOKEN_WINDOW_SECONDS = 300;

/**
 * The `Sec-MS-GEC` value the Edge browser sends: SHA-256 (upper-case hex) of the current
 * Windows file time, rounded down to 5 minutes and written in 100 ns ticks, followed by the
 * trusted client token. Ticks are built as a string: the number passes 2^53.
 */
export function secMsGec(trustedClientToken: string, nowMs: number): string {
  const seconds = Math.floor(nowMs / 1000) + WINDOWS_EPOCH_OFFSET_SECONDS;
  const windowStart = seconds - (seconds % TOKEN_WINDOW_SECONDS);
  return createHash('sha256').update(`${windowStart}0000000${trustedClientToken}`, 'ascii').digest('hex').toUpperCase();
}

/**
 * The service checks the token against its own clock. Real clients learn the offset from the
 * `Date` header of a refusal and try once more; this keeps that offset per provider instance.
 */
export class ServiceClock {
  private skewMs = 0;

  now(): number {
    return Date.now() + this.skewMs;
  }

  /** Learns the offset from a `Date` header; true when it changes the token (worth a retry). */
  learnFrom(dateHeader: string | undefined, trustedClientToken: string): boolean {
    const serverMs = dateHeader ? Date.parse(dateHeader) : Number.NaN;
    if (Number.isNaN(serverMs)) return false;
    const before = secMsGec(trustedClientToken, this.now());
    this.skewMs = serverMs - Date.now();
    return secMsGec(trustedClientToken, this.now()) !== before;
  }
}

/** What the current Edge browser accepts; the voice list may come back in any of these. */
export const EDGE_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/**
 * The browser identity headers sent with every call (the socket upgrade and the voice list), as
 * current reference clients send them: a `muid` cookie of 32 upper-case hex digits, random for
 * each connection, and zstd among the accepted encodings.
 */
export function edgeBrowserHeaders(clientVersion: string): Record<string, string> {
  const major = clientVersion.split('.')[0];
  return {
    'User-Agent': `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36 Edg/${major}.0.0.0`,
    'Accept-Encoding': EDGE_ACCEPT_ENCODING,
    'Accept-Language': 'en-US,en;q=0.9',
    Cookie: `muid=${randomBytes(16).toString('hex').toUpperCase()}`,
  };
}
