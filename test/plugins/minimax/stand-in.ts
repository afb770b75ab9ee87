import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MiniMaxOptions } from '../../../plugins/minimax';
import { fixturesRoot } from '../../support/paths';

interface Recorded {
  readonly path: string;
  readonly response: { readonly data?: { readonly audio?: string } };
}

function recorded(scenario: string): Recorded {
  const definitions = JSON.parse(readFileSync(join(fixturesRoot, 'minimax', `${scenario}.json`), 'utf8')) as Recorded[];
  return definitions[0];
}

/** The hex audio (`data.audio`) of a recorded synthesis answer. */
export function recordedHexAudio(scenario: string): string {
  return recorded(scenario).response.data?.audio ?? '';
}

export const standInOptions: MiniMaxOptions = { apiKey: 'mm-test-key-0123456789', baseUrl: 'https://api.minimax.io', sampleRate: 32000, timeoutMs: 5000 };

/** The recorded speech is of this voice (the recorded voice list names it too). */
export const STAND_IN_VOICE = 'English_Graceful_Lady';

/** One server-sent event of a streamed T2A answer, as MiniMax writes it. */
export function t2aEvent(answer: object): string {
  return `data: ${JSON.stringify(answer)}\n\n`;
}

/**
 * A streamed T2A answer (`stream: true`) carrying `hex`: the audio in `pieces` events of status 1,
 * then the closing event (status 2, `extra_info`, no audio: the plugin asks for
 * `exclude_aggregated_audio`).
 */
export function streamedT2aEvents(hex: string, format: string, sampleRate: number, pieces = 3): string[] {
  const bytes = hex.length / 2;
  const size = Math.ceil(bytes / pieces) * 2;
  const events: string[] = [];
  for (let start = 0; start < hex.length; start += size) {
    events.push(t2aEvent({ data: { audio: hex.slice(start, start + size), status: 1, ced: '' }, trace_id: 'stand-in', base_resp: { status_code: 0, status_msg: '' } }));
  }
  const extra = { audio_length: 1000, audio_sample_rate: sampleRate, audio_size: bytes, bitrate: 128000, audio_format: format, audio_channel: 1, usage_characters: 19 };
  events.push(t2aEvent({ data: { audio: '', status: 2, ced: '' }, extra_info: extra, trace_id: 'stand-in', base_resp: { status_code: 0, status_msg: 'success' } }));
  return events;
}

/** MiniMax's two endpoints, answered from the recorded fixtures (a cancelled call fails, as with fetch). */
export function standInFetch(): typeof fetch {
  /** Recorded hex audio per format, from the synthesis fixtures. */
  const audioByFormat: Record<string, string | undefined> = {
    mp3: recorded('synthesize-mp3').response.data?.audio,
    pcm: recorded('synthesize-pcm').response.data?.audio,
    wav: recorded('synthesize-wav-group').response.data?.audio,
    flac: recorded('synthesize-flac-china').response.data?.audio,
  };
  return (async (input: string | URL | Request, init?: RequestInit) => {
    init?.signal?.throwIfAborted();
    const url = new URL(String(input));
    const json = { 'content-type': 'application/json' };
    if (url.pathname === '/v1/get_voice') return new Response(JSON.stringify(recorded('voices').response), { headers: json });
    if (url.pathname !== '/v1/t2a_v2') return new Response('not found', { status: 404 });
    const body = JSON.parse(String(init?.body)) as { stream: boolean; audio_setting: { format: string; sample_rate: number } };
    const format = body.audio_setting.format;
    const sampleRate = format === 'mp3' || format === 'flac' ? 32000 : 16000;
    if (body.stream) {
      const events = streamedT2aEvents(audioByFormat[format] ?? '', format, sampleRate).join('');
      return new Response(events, { headers: { 'content-type': 'text/event-stream' } });
    }
    return new Response(
      JSON.stringify({
        data: { audio: audioByFormat[format], status: 2 },
        extra_info: { audio_sample_rate: sampleRate, audio_format: format, audio_channel: 1 },
        trace_id: 'conformance',
        base_resp: { status_code: 0, status_msg: 'success' },
      }),
      { headers: json },
    );
  }) as typeof fetch;
}
