import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesRoot } from '../../support/paths';

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

/** A stand-in for Google's API that answers from the recorded fixtures (voices and real audio). */
export const googleStandIn: typeof fetch = async (input, init) => {
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
