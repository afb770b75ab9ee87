import { isIP } from 'node:net';

/**
 * `server.trustProxy`: which hops in front of the gateway are believed about the client
 * (`X-Forwarded-For`, `-Proto`, `-Host`). Express's `trust proxy` takes each form as it is.
 * - `false`: none (clients reach the gateway directly);
 * - a number: that many proxies in front, so the client is the address the last of them saw
 *   (what a client writes into `X-Forwarded-For` itself stays on the left, unbelieved);
 * - addresses: the proxies' own addresses or ranges (`10.0.0.0/8`, `loopback`);
 * - `true`: every hop, so the left-most `X-Forwarded-For` entry, which the client can write.
 */
export type TrustedProxies = boolean | number | readonly string[];

/** Express's names for address ranges (`loopback`: 127.0.0.1/8 and ::1/128, ...). */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An IP address, a range (`10.0.0.0/8`, `fd00::/8`, `10.0.0.0/255.0.0.0`) or one of Express's range names: an entry of a list. */
export function isProxyAddress(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (family === 4 && isIP(prefix) === 4) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** The entries of a comma-separated list (`loopback, 10.0.0.1`), as Express reads one string. */
const entriesOf = (value: string): string[] => value.split(',').map((entry) => entry.trim());

/**
 * A string the setting can hold: addresses, or `true`, `false` or a number written as text (an
 * interpolated `${TRUST_PROXY}` stays a string, the schema admitting strings).
 */
export function isTrustedProxiesText(value: string): boolean {
  return /^(true|false|[1-9]\d{0,2})$/.test(value.trim()) || entriesOf(value).every(isProxyAddress);
}

/** The validated setting in the one form each meaning has. */
export function trustedProxies(value: boolean | number | string | readonly string[]): TrustedProxies {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (text === 'true' || text === 'false') return text === 'true';
  if (/^\d+$/.test(text)) return Number(text);
  return entriesOf(text);
}
