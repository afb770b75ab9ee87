import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PollyOptions } from '../../../plugins/polly';
import { fixturesRoot } from '../../support/paths';
import { TEST_CREDENTIALS } from './harness';

interface FixtureDefinition {
  readonly path: string;
  readonly response: unknown;
}

function recorded(scenario: string): FixtureDefinition[] {
  return JSON.parse(readFileSync(join(fixturesRoot, 'polly', `${scenario}.json`), 'utf8')) as FixtureDefinition[];
}

const AUDIO: Record<string, { scenario: string; contentType: string }> = {
  mp3: { scenario: 'synthesize-mp3', contentType: 'audio/mpeg' },
  pcm: { scenario: 'synthesize-pcm', contentType: 'audio/pcm' },
  ogg_opus: { scenario: 'synthesize-opus', contentType: 'audio/ogg' },
};

function headerOf(init: RequestInit | undefined, name: string): string | undefined {
  return new Headers(init?.headers).get(name) ?? undefined;
}

export const standInOptions: PollyOptions = { region: 'us-east-1', ...TEST_CREDENTIALS, timeoutMs: 5000 };

/** Polly's DescribeVoices and SynthesizeSpeech from the recorded fixtures; unsigned calls are refused. */
const pollyStandIn: typeof fetch = async (input, init) => {
  init?.signal?.throwIfAborted();
  if (!headerOf(init, 'authorization')?.startsWith('AWS4-HMAC-SHA256 ')) {
    return new Response('{"message":"Missing Authentication Token"}', { status: 403, headers: { 'x-amzn-errortype': 'MissingAuthenticationTokenException' } });
  }
  const url = new URL(String(input));
  if (url.pathname === '/v1/voices') {
    // Two recorded pages; like Polly, keep only the voices of the asked engine.
    const pages = recorded('voices');
    const page = pages[url.searchParams.has('NextToken') ? 1 : 0].response as { Voices: { SupportedEngines: string[] }[]; NextToken?: string };
    const engine = url.searchParams.get('Engine') ?? '';
    const answer = { ...page, Voices: page.Voices.filter((voice) => voice.SupportedEngines.includes(engine)) };
    return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
  }
  const body = JSON.parse(String(init?.body)) as { OutputFormat: string };
  const audio = AUDIO[body.OutputFormat];
  const hex = recorded(audio.scenario)[0].response as string;
  return new Response(Buffer.from(hex, 'hex'), { status: 200, headers: { 'content-type': audio.contentType } });
};

export function standInFetch(): typeof fetch {
  return pollyStandIn;
}
