import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CartesiaOptions } from '../../../plugins/cartesia';
import { fixturesRoot } from '../../support/paths';

interface Recorded {
  readonly response: unknown;
}

const recorded = (scenario: string): Recorded[] => JSON.parse(readFileSync(join(fixturesRoot, 'cartesia', `${scenario}.json`), 'utf8')) as Recorded[];
const hexAudio = (scenario: string) => Buffer.from(String(recorded(scenario)[0].response), 'hex');

export const standInOptions: CartesiaOptions = { apiKey: 'sk_car_test0123456789', baseUrl: 'https://api.cartesia.ai', version: '2026-03-01', sampleRate: 16000, timeoutMs: 5000 };

/** Cartesia's `/tts/bytes` and one page of `/voices`, answered from the fixtures (cancellable like fetch). */
export function standInFetch(): typeof fetch {
  /** The recorded audio per `output_format.container`. */
  const audioByContainer: Record<string, Buffer> = { mp3: hexAudio('synthesize-mp3'), wav: hexAudio('synthesize-wav'), raw: hexAudio('synthesize-pcm') };
  return (async (input: string | URL | Request, init?: RequestInit) => {
    init?.signal?.throwIfAborted();
    const url = new URL(String(input));
    if (url.pathname === '/voices') return Response.json({ ...(recorded('voices-paged')[1].response as object), has_more: false });
    const body = JSON.parse(String(init?.body)) as { output_format: { container: string } };
    return new Response(new Uint8Array(audioByContainer[body.output_format.container]), { headers: { 'content-type': 'application/octet-stream' } });
  }) as typeof fetch;
}
