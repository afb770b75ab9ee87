/**
 * An independent SigV4 reference (written from AWS's description of the algorithm, with
 * node:crypto only) to check the signature the plugin sent, not just its shape.
 */
import { createHash, createHmac } from 'node:crypto';
import type { CapturedRequest } from '../../support/nock-fixtures';

const sha256 = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();
const rfc3986 = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);

function canonicalQuery(search: URLSearchParams): string {
  return [...search.entries()]
    .map(([name, value]) => [rfc3986(name), rfc3986(value)])
    .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

/** The signature AWS would compute for the captured request with the given secret. */
export function expectedSignature(request: CapturedRequest, host: string, secretAccessKey: string, signedHeaderNames: string[], scope: { date: string; region: string; service: string }): string {
  const url = new URL(request.path, `https://${host}`);
  const headerValue = (name: string) => {
    if (name === 'host') return host;
    if (name === 'content-length') return String(Buffer.byteLength(request.body, 'utf8'));
    return (request.headers[name] ?? '').trim().replace(/\s+/g, ' ');
  };
  const canonicalRequest = [
    request.method,
    url.pathname,
    canonicalQuery(url.searchParams),
    signedHeaderNames.map((name) => `${name}:${headerValue(name)}\n`).join(''),
    signedHeaderNames.join(';'),
    sha256(request.body),
  ].join('\n');
  const credentialScope = `${scope.date}/${scope.region}/${scope.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', request.headers['x-amz-date'], credentialScope, sha256(canonicalRequest)].join('\n');
  let key = hmac(`AWS4${secretAccessKey}`, scope.date);
  for (const part of [scope.region, scope.service, 'aws4_request']) key = hmac(key, part);
  return createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex');
}
