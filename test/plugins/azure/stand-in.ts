import type { AzureOptions } from '../../../plugins/azure';
import { baseOptions, fixtureAudio } from './harness';

const AUDIO_BY_OUTPUT_FORMAT: Record<string, string> = {
  'audio-24khz-48kbitrate-mono-mp3': 'synthesize-mp3',
  'riff-24khz-16bit-mono-pcm': 'synthesize-wav',
  'raw-24khz-16bit-mono-pcm': 'synthesize-pcm',
  'ogg-24khz-16bit-mono-opus': 'synthesize-opus',
};

export const standInOptions: AzureOptions = baseOptions;

/** Answers Azure's two endpoints: the voice list and synthesis in the requested output format. */
export function standInFetch(): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    init?.signal?.throwIfAborted();
    const url = String(input);
    const headers = new Headers(init?.headers);
    if (url.endsWith('/cognitiveservices/voices/list')) {
      const voices = [{ ShortName: 'en-US-JennyNeural', DisplayName: 'Jenny', Gender: 'Female', Locale: 'en-US', LocaleName: 'English (United States)', VoiceType: 'Neural', Status: 'GA' }];
      return new Response(JSON.stringify(voices), { status: 200, headers: { 'content-type': 'application/json' } });
    }
    const scenario = AUDIO_BY_OUTPUT_FORMAT[headers.get('x-microsoft-outputformat') ?? ''];
    if (!url.endsWith('/cognitiveservices/v1') || init?.method !== 'POST' || !scenario) return new Response('', { status: 400 });
    return new Response(fixtureAudio(scenario), { status: 200 });
  }) as typeof fetch;
}
