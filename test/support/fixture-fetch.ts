import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesRoot } from './paths';

interface RecordedCall {
  readonly scope: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly response: unknown;
  readonly rawHeaders?: readonly string[];
  readonly responseIsBinary?: boolean;
}

function toBody(call: RecordedCall): Uint8Array | string {
  if (call.responseIsBinary) return new Uint8Array(Buffer.from(String(call.response), 'hex'));
  return typeof call.response === 'string' ? call.response : JSON.stringify(call.response);
}

function toHeaders(rawHeaders: readonly string[] = []): Headers {
  const headers = new Headers();
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    if (rawHeaders[index].toLowerCase() !== 'transfer-encoding') headers.append(rawHeaders[index], rawHeaders[index + 1]);
  }
  return headers;
}

/**
 * A `fetch` stand-in that answers any number of calls from recorded scenarios, matched by
 * method and path with query (the request body is not matched: the conformance suite varies it).
 */
export function fixtureFetch(plugin: string, scenarios: readonly string[]): typeof fetch {
  const calls = scenarios.flatMap((scenario) => JSON.parse(readFileSync(join(fixturesRoot, plugin, `${scenario}.json`), 'utf8')) as RecordedCall[]);
  return (async (input: string | URL | Request, init?: RequestInit) => {
    init?.signal?.throwIfAborted();
    const url = new URL(String(input));
    const method = init?.method ?? 'GET';
    const call = calls.find((candidate) => candidate.method === method && new URL(candidate.scope).host === url.host && candidate.path === url.pathname + url.search);
    if (!call) return new Response(JSON.stringify({ detail: { status: 'not_found', message: `no fixture for ${method} ${url.pathname}${url.search}` } }), { status: 404 });
    return new Response(toBody(call), { status: call.status, headers: toHeaders(call.rawHeaders) });
  }) as typeof fetch;
}
