/** Where a call goes on undici's dispatcher: an origin and the path with its query. */
export interface CallTarget {
  readonly origin: string;
  readonly path: string;
}

/** The parts of a call that a redirect may change. */
export interface Hop {
  readonly target: CallTarget;
  readonly method: string;
  /** Lower-case names. */
  readonly headers: Record<string, string>;
  readonly body: string | Uint8Array | undefined;
}

/** The statuses fetch follows (300 is not one of them). */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Dropped when a redirect changes the call to a GET without a body. */
const BODY_HEADERS = ['content-encoding', 'content-language', 'content-location', 'content-type', 'content-length'];
/**
 * All another origin is given after a redirect: headers that describe the call. fetch drops only
 * `Authorization` there, but providers take keys in headers of their own (`xi-api-key`,
 * `x-goog-api-key`, `Ocp-Apim-Subscription-Key`, a plugin's own), so anything else is dropped.
 */
const CROSS_ORIGIN_HEADERS = new Set(['accept', 'accept-language', 'content-type', 'content-language', 'content-encoding', 'content-length', 'user-agent']);

export function targetOfUrl(url: URL): CallTarget {
  return { origin: url.origin, path: `${url.pathname}${url.search}` };
}

/** A redirect's answer: never a body to hand on. */
export function isRedirect(status: number, location: string | undefined): location is string {
  return location !== undefined && REDIRECT_STATUSES.has(status);
}

/**
 * The call a redirect asks for, as fetch makes it: the location resolved against the call's URL;
 * a 303 (other than to a GET or HEAD), or a 301 or 302 to a POST, becomes a GET without a body;
 * a new origin gets no credentials (nor any header that may hold one). A location that is no http(s) URL is a network error, as in fetch.
 */
export function redirectHop(hop: Hop, status: number, location: string): Hop {
  let next: URL;
  try {
    next = new URL(location, `${hop.target.origin}${hop.target.path}`);
  } catch (error) {
    throw new TypeError('fetch failed', { cause: error });
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new TypeError('fetch failed', { cause: new Error(`redirect to a ${next.protocol} URL`) });
  const target = targetOfUrl(next);
  const toGet = (status === 303 && hop.method !== 'GET' && hop.method !== 'HEAD') || ((status === 301 || status === 302) && hop.method === 'POST');
  const headers = { ...hop.headers };
  if (toGet) for (const name of BODY_HEADERS) delete headers[name];
  if (target.origin !== hop.target.origin) for (const name of Object.keys(headers)) if (!CROSS_ORIGIN_HEADERS.has(name)) delete headers[name];
  return { target, headers, method: toGet ? 'GET' : hop.method, body: toGet ? undefined : hop.body };
}
