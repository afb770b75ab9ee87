import type { ConfigFile } from './config-file';

/**
 * URL settings as their clients will read them. The schema checks the scheme only; ioredis, pg,
 * the S3 client and the download links parse the rest with WHATWG URL at start, where a bad port
 * or a password that does not decode failed as "TypeError: Invalid URL", naming no setting.
 * The URL itself is never quoted: it may hold a password.
 */

const EXPECTATION = 'must be a URL that parses: a port of at most 65535, and the special characters of a user or password percent-encoded (@ as %40)';

function parses(url: string, decodesCredentials: boolean): boolean {
  try {
    const parsed = new URL(url);
    // ioredis decodes them with decodeURIComponent: a stray `%` throws URIError at start.
    if (decodesCredentials) decodeURIComponent(parsed.username) + decodeURIComponent(parsed.password);
    return true;
  } catch {
    return false;
  }
}

/** One line per URL setting its client could not parse. */
export function urlSettingProblems(file: ConfigFile): string[] {
  const settings: [path: string, url: string | undefined, decodesCredentials: boolean][] = [
    ['server.publicBaseUrl', file.server.publicBaseUrl, false],
    ['storage.s3.endpoint', file.storage.s3?.endpoint, false],
    // pg decodes leniently: it fails only where WHATWG URL does (a port out of range, a bracket left open).
    ['database.url', file.database.url.startsWith('sqlite:') ? undefined : file.database.url, false],
    ['redis.url', file.redis.url, true],
  ];
  return settings.filter(([, url, decodes]) => url !== undefined && !parses(url, decodes)).map(([path]) => `${path}: ${EXPECTATION}`);
}
