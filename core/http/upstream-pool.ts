import type { Agent } from 'undici';
import { fetchThroughRequest, plainCall } from './request-as-fetch';

/** Idle connections are kept this long, unless the server asks for less (its Keep-Alive header). */
const KEEP_ALIVE_MS = 30_000;
/** Connections at most per upstream origin; more requests wait for one instead of opening more. */
const CONNECTIONS_PER_ORIGIN = 128;

/** A fetch whose calls share keep-alive connections, and the way to close them. */
export interface PooledFetch {
  readonly fetch: typeof fetch;
  close(): Promise<void>;
}

/**
 * One keep-alive connection pool (an undici Agent: a pool per origin) for every provider's
 * calls. Plain calls (a URL, a string or byte body) go through undici's request API and come
 * back as a real Response; anything else takes the platform's fetch with the same pool as its
 * dispatcher. undici is loaded at the first call: it costs 17 MB and 80 ms, which a gateway
 * without upstream providers never pays.
 */
export function createPooledFetch(): PooledFetch {
  let pool: Promise<Agent> | undefined;
  let closed = false;
  const open = (): Promise<Agent> =>
    (pool ??= import('undici').then((undici) => new undici.Agent({ keepAliveTimeout: KEEP_ALIVE_MS, connections: CONNECTIONS_PER_ORIGIN })));
  const pooled = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    if (closed) return globalThis.fetch(input, init);
    const agent = await open();
    const call = plainCall(input, init);
    if (call) return fetchThroughRequest(agent, call);
    // The platform's fetch takes any undici Dispatcher; its typings name another copy of the type.
    return globalThis.fetch(input, { ...init, dispatcher: agent } as RequestInit);
  };
  return {
    fetch: pooled as typeof fetch,
    close: async () => {
      closed = true;
      if (pool) await (await pool).close();
    },
  };
}
