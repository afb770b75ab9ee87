/**
 * What the stand-ins saw: a recording wrapper around a stand-in `fetch`, and readers that turn a
 * provider's outgoing synthesis request back into its text and the prosody values it carried.
 */
import type { Adjustment } from '../../core';

export interface OutgoingCall {
  readonly url: URL;
  readonly method: string;
  readonly headers: Headers;
  readonly body: string;
}

/** One synthesis call as the provider's API received it: the text and prosody in its own units. */
export interface SentSynthesis {
  readonly text: string;
  readonly prosody: Partial<Record<Adjustment, string | number>>;
}

/** Wraps a stand-in, keeping every call (URL, method, headers, body) in `log`. */
export function recordingFetch(inner: typeof fetch, log: OutgoingCall[]): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    log.push({ url: new URL(String(input)), method: init?.method ?? 'GET', headers: new Headers(init?.headers), body: typeof init?.body === 'string' ? init.body : '' });
    return inner(input, init);
  }) as typeof fetch;
}

/** Drops undefined values, so "not sent" and "absent" read the same. */
function prosody(values: Partial<Record<Adjustment, string | number | undefined>>): SentSynthesis['prosody'] {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as SentSynthesis['prosody'];
}

const json = (call: OutgoingCall): Record<string, any> => JSON.parse(call.body) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const XML_ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&apos;': "'" };

/** The spoken text and `<prosody>` attributes of an SSML document (either quote style). */
export function readSsml(ssml: string, attributeNames: Readonly<Record<string, Adjustment>>): SentSynthesis {
  const attributes: Partial<Record<Adjustment, string>> = {};
  const element = /<prosody\s([^>]*)>/.exec(ssml)?.[1] ?? '';
  for (const [, name, value] of element.matchAll(/([\w-]+)=["']([^"']*)["']/g)) {
    if (attributeNames[name]) attributes[attributeNames[name]] = value;
  }
  const text = ssml.replace(/<[^>]*>/g, '').replace(/&(lt|gt|amp|quot|apos);/g, (entity) => XML_ENTITIES[entity]);
  return { text, prosody: attributes };
}

const MICROSOFT_PROSODY = { rate: 'speed', pitch: 'pitch', volume: 'volume' } as const;

/** Readers per plugin: which outgoing calls are synthesis calls, and what they carried. */
export const SYNTHESIS_READERS: Readonly<Record<string, (calls: readonly OutgoingCall[]) => SentSynthesis[]>> = {
  openai: (calls) => calls.filter((call) => call.url.pathname === '/v1/audio/speech').map(json).map((body) => ({ text: body.input, prosody: prosody({ speed: body.speed }) })),
  'openai-compatible': (calls) => calls.filter((call) => call.url.pathname === '/v1/audio/speech').map(json).map((body) => ({ text: body.input, prosody: prosody({ speed: body.speed }) })),
  elevenlabs: (calls) =>
    calls.filter((call) => call.url.pathname.startsWith('/v1/text-to-speech/')).map(json).map((body) => ({ text: body.text, prosody: prosody({ speed: body.voice_settings?.speed }) })),
  azure: (calls) => calls.filter((call) => call.url.pathname === '/cognitiveservices/v1').map((call) => readSsml(call.body, MICROSOFT_PROSODY)),
  google: (calls) =>
    calls
      .filter((call) => call.url.pathname === '/v1/text:synthesize')
      .map(json)
      .map((body) => ({ text: body.input.text, prosody: prosody({ speed: body.audioConfig.speakingRate, pitch: body.audioConfig.pitch, volume: body.audioConfig.volumeGainDb }) })),
  polly: (calls) =>
    calls
      .filter((call) => call.url.pathname === '/v1/speech')
      .map(json)
      .map((body) => (body.TextType === 'ssml' ? readSsml(body.Text, { rate: 'speed', volume: 'volume' }) : { text: body.Text, prosody: {} })),
  minimax: (calls) =>
    calls.filter((call) => call.url.pathname === '/v1/t2a_v2').map(json).map((body) => ({ text: body.text, prosody: prosody({ speed: body.voice_setting.speed, pitch: body.voice_setting.pitch }) })),
  deepgram: (calls) => calls.filter((call) => call.url.pathname === '/v1/speak').map(json).map((body) => ({ text: body.text, prosody: {} })),
  cartesia: (calls) =>
    calls.filter((call) => call.url.pathname === '/tts/bytes').map(json).map((body) => ({ text: body.transcript, prosody: prosody({ speed: body.generation_config?.speed }) })),
};

/** The ssml frames an Edge stand-in received, read like Azure's SSML. */
export function readEdgeMessages(messages: readonly string[]): SentSynthesis[] {
  return messages.filter((message) => message.includes('Path:ssml\r\n')).map((message) => readSsml(message.slice(message.indexOf('\r\n\r\n') + 4), MICROSOFT_PROSODY));
}

const signed = (value: number, unit: string) => `${value < 0 ? '-' : '+'}${Math.abs(Math.round(value * 100) / 100)}${unit}`;
const round = (value: number, digits: number) => Number(value.toFixed(digits));
const semitones = (multiplier: number) => 12 * Math.log2(multiplier);
const decibels = (multiplier: number) => 20 * Math.log10(multiplier);

/**
 * The value each provider's API documents for a gateway multiplier (written from the providers'
 * docs, independently of the plugins' own mapping code).
 */
export const EXPECTED_NATIVE: Readonly<Record<string, Partial<Record<Adjustment, (multiplier: number) => string | number>>>> = {
  openai: { speed: (value) => value },
  'openai-compatible': { speed: (value) => value },
  elevenlabs: { speed: (value) => value },
  azure: { speed: (value) => signed((value - 1) * 100, '%'), pitch: (value) => signed(semitones(value), 'st') },
  edge: { speed: (value) => signed((value - 1) * 100, '%'), pitch: (value) => signed(semitones(value), 'st') },
  google: { speed: (value) => value, pitch: (value) => round(semitones(value), 2), volume: (value) => round(decibels(value), 2) },
  polly: { speed: (value) => `${round(value * 100, 1)}%`, volume: (value) => signed(decibels(value), 'dB') },
  minimax: { speed: (value) => value, pitch: (value) => Math.round(semitones(value)) },
  cartesia: { speed: (value) => value },
};
