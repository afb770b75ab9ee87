/** Stand-ins for a provider that fails in each of the ways the gateway must map. */
const json = { 'content-type': 'application/json' };

export const failingFetches = {
  unauthorized: (() => Promise.resolve(new Response('{"error":{"message":"invalid api key"}}', { status: 401, headers: json }))) as typeof fetch,
  rateLimited: (() =>
    Promise.resolve(new Response('{"error":{"message":"rate limit"}}', { status: 429, headers: { ...json, 'retry-after': '3' } }))) as typeof fetch,
  serverError: (() => Promise.resolve(new Response('{"error":{"message":"internal"}}', { status: 500, headers: json }))) as typeof fetch,
  unreachable: (() => Promise.reject(new TypeError('fetch failed'))) as typeof fetch,
  /** Never answers; settles only when the caller's signal aborts. */
  hanging: ((_input: unknown, init?: RequestInit) =>
    new Promise<Response>((_resolve, reject) => {
      const signal = init?.signal;
      if (!signal) return;
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    })) as typeof fetch,
};
