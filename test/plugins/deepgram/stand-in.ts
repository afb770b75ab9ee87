import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DeepgramOptions } from '../../../plugins/deepgram';
import { fixturesRoot } from '../../support/paths';

interface Recorded {
  readonly response: unknown;
}

const recorded = (scenario: string): Recorded =>
  (JSON.parse(readFileSync(join(fixturesRoot, 'deepgram', `${scenario}.json`), 'utf8')) as Recorded[])[0];

export const standInOptions: DeepgramOptions = { apiKey: 'dg-test-key-0123456789', baseUrl: 'https://api.deepgram.com', timeoutMs: 5000 };

/** Deepgram's speak and models endpoints, answered from the recorded fixtures (cancellable like fetch). */
export function standInFetch(): typeof fetch {
  /** The recorded audio per `encoding` (+ `container` for linear16). */
  const audio: Record<string, Buffer> = Object.fromEntries(
    [
      ['mp3', 'synthesize-mp3'],
      ['linear16/wav', 'synthesize-wav'],
      ['linear16/none', 'synthesize-pcm'],
      ['opus', 'synthesize-opus'],
      ['flac', 'synthesize-flac'],
      ['aac', 'synthesize-aac'],
    ].map(([key, scenario]) => [key, Buffer.from(String(recorded(scenario).response), 'hex')]),
  );
  return (async (input: string | URL | Request, init?: RequestInit) => {
    init?.signal?.throwIfAborted();
    const url = new URL(String(input));
    if (url.pathname === '/v1/models') return Response.json(recorded('voices').response);
    const encoding = url.searchParams.get('encoding') ?? '';
    const key = encoding === 'linear16' ? `linear16/${url.searchParams.get('container')}` : encoding;
    const bytes = audio[key];
    if (url.pathname !== '/v1/speak' || !bytes) return Response.json({ err_code: 'INVALID_QUERY_PARAMETER', err_msg: 'unsupported' }, { status: 400 });
    return new Response(new Uint8Array(bytes), { headers: { 'content-type': 'application/octet-stream' } });
  }) as typeof fetch;
}
