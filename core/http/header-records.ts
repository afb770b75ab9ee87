/**
 * Headers as plain records, on the pooled fetch's path: a `Headers` object costs about 1.5 us to
 * build and as much to read back, and a call made two on its way out and two on its way back.
 */

/** Headers as undici's request API answers them: lower-case names, repeated ones as arrays. */
export type RawHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

/** What fetch takes as its `headers`. */
type HeaderInit = NonNullable<RequestInit['headers']>;

/** A header name (an HTTP token). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A value `Headers` would keep as it is: visible ASCII, inner spaces, nothing to trim or refuse. */
const PLAIN_VALUE = /^(?:[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?)?$/;

/**
 * `init` as a record of lower-case names, as `new Headers(init)` would give it. A plain object of
 * plain names and values is copied directly; anything else (a `Headers`, pairs, a value to trim,
 * a name given twice in different cases, an invalid header) goes through `Headers`, which
 * combines, trims and refuses as fetch does.
 */
export function headerRecord(init: RequestInit['headers']): Record<string, string> {
  if (init === undefined || init === null) return {};
  const plain = isPlainObject(init) ? plainCopy(init) : undefined;
  if (plain) return plain;
  const record: Record<string, string> = {};
  for (const [name, value] of new Headers(init)) record[name] = value;
  return record;
}

/** `raw` as a `Headers`, each repeated header's values appended in order. */
export function headersOfRaw(raw: RawHeaders): Headers {
  try {
    return headersOfDecoded(raw);
  } catch {
    // A value beyond latin1, which `Headers` refuses: undici decoded its bytes as UTF-8, fetch
    // reads them as latin1. Rare, so only then is every value turned back into its bytes.
    return headersOfDecoded(asByteStrings(raw));
  }
}

function headersOfDecoded(raw: RawHeaders): Headers {
  let allStrings = true;
  for (const name in raw) if (typeof raw[name] !== 'string') allStrings = false;
  // One constructor call is cheaper than an append per header.
  if (allStrings) return new Headers(raw as Record<string, string>);
  const headers = new Headers();
  for (const name in raw) {
    const value = raw[name];
    if (typeof value === 'string') headers.append(name, value);
    else if (value !== undefined) for (const item of value) headers.append(name, item);
  }
  return headers;
}

/** One value of `raw`'s header `name` as `Headers.get` gives it: repeated ones joined. */
export function rawHeader(raw: RawHeaders, name: string): string | undefined {
  const value = raw[name];
  return typeof value === 'string' || value === undefined ? value : value.join(', ');
}

/** `raw`'s values as fetch reads them: their UTF-8 bytes, one character a byte. */
function asByteStrings(raw: RawHeaders): RawHeaders {
  const bytes: Record<string, string | string[] | undefined> = {};
  for (const name in raw) {
    const value = raw[name];
    bytes[name] = typeof value === 'string' ? byteString(value) : value?.map(byteString);
  }
  return bytes;
}

function byteString(value: string): string {
  return Buffer.from(value, 'utf8').toString('latin1');
}

function isPlainObject(value: HeaderInit): value is Record<string, string> {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** `init` with lower-case names; undefined when one entry needs `Headers`'s rules. */
function plainCopy(init: Record<string, string>): Record<string, string> | undefined {
  const record: Record<string, string> = {};
  for (const name of Object.keys(init)) {
    const value = init[name];
    if (typeof value !== 'string' || !TOKEN.test(name) || !PLAIN_VALUE.test(value)) return undefined;
    const lowerName = name.toLowerCase();
    // `Headers` reads a plain object into one of its own, where `__proto__` is lost: so is it here.
    if (Object.hasOwn(record, lowerName) || lowerName === '__proto__') return undefined;
    record[lowerName] = value;
  }
  return record;
}
