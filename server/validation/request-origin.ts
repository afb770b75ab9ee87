import type { Request } from 'express';
import { GatewayError } from '../../core';

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
/** A host name, an IPv4 address or a bracketed IPv6 address, and an optional port: nothing else. */
const HOST = new RegExp(`^(?:\\[[0-9A-Fa-f:.]+\\]|${LABEL}(?:\\.${LABEL})*)(?::([0-9]{1,5}))?$`);
const MAX_HOST_LENGTH = 255;
/** The schemes a download link may have; X-Forwarded-Proto (with `trustProxy`) is the client's text otherwise. */
const LINK_SCHEMES = new Set(['http', 'https']);

function invalidHost(reason: string): GatewayError {
  return new GatewayError('TTS_ERR_VALIDATION', 'The Host header must be a host name with an optional port', {
    details: [{ field: 'Host', reason }],
  });
}

/**
 * The origin links in answers are built on when no `publicBaseUrl` is set: the request's scheme
 * (X-Forwarded-Proto with `trustProxy`), http or https, and its Host (X-Forwarded-Host with
 * `trustProxy`), checked to be a host and a port alone, so a forged Host
 * (`localhost:8080@evil.example`, a path, a bad port) or scheme (`https://evil.example/?`)
 * cannot shape a link (400).
 */
export function requestOrigin(request: Request): string {
  const scheme = request.protocol.toLowerCase();
  if (!LINK_SCHEMES.has(scheme)) {
    throw new GatewayError('TTS_ERR_VALIDATION', 'X-Forwarded-Proto must be http or https', {
      details: [{ field: 'X-Forwarded-Proto', reason: 'not http or https' }],
    });
  }
  const host = request.host;
  if (!host) throw invalidHost('missing');
  if (host.length > MAX_HOST_LENGTH) throw invalidHost('too long');
  const match = HOST.exec(host);
  if (!match) throw invalidHost('not a host name and port');
  const port = match[1];
  if (port !== undefined && (port.startsWith('0') || Number(port) > 65535)) throw invalidHost('bad port');
  return `${scheme}://${host.toLowerCase()}`;
}
