import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GoogleOptions } from '../../../plugins/google';
import { fixturesRoot } from '../../support/paths';
import { TEST_KEY } from './harness';

interface FixtureDefinition {
  readonly response: { readonly audioContent?: string; readonly voices?: unknown[] };
}

function recordedResponse(scenario: string): FixtureDefinition['response'] {
  const definitions = JSON.parse(readFileSync(join(fixturesRoot, 'google', `${scenario}.json`), 'utf8')) as FixtureDefinition[];
  return definitions[0].response;
}

const AUDIO_BY_ENCODING: Record<string, string> = {
  LINEAR16: 'synthesize-wav',
  MP3: 'synthesize-mp3',
  OGG_OPUS: 'synthesize-opus',
};

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json; charset=UTF-8' } });

export const standInOptions: GoogleOptions = { apiKey: TEST_KEY, baseUrl: 'https://texttospeech.googleapis.com', timeoutMs: 5000 };

/** Google's voice list and `text:synthesize`, answered from the recorded fixtures (voices and real audio). */
const googleStandIn: typeof fetch = async (input, init) => {
  init?.signal?.throwIfAborted();
  const url = new URL(String(input));
  if (url.pathname === '/v1/voices') return json(recordedResponse('voices'));
  if (url.pathname === '/v1/text:synthesize') {
    const body = JSON.parse(String(init?.body)) as { audioConfig: { audioEncoding: string } };
    const scenario = AUDIO_BY_ENCODING[body.audioConfig.audioEncoding];
    if (!scenario) return new Response('{"error":{"code":400,"status":"INVALID_ARGUMENT"}}', { status: 400 });
    return json({ audioContent: recordedResponse(scenario).audioContent });
  }
  return new Response('{"error":{"code":404,"status":"NOT_FOUND"}}', { status: 404 });
};

export function standInFetch(): typeof fetch {
  return googleStandIn;
}
