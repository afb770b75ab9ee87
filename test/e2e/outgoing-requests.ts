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

/** A JSON request body, read field by field without trusting its shape. */
class JsonBody {
  private readonly value: unknown;

  constructor(call: OutgoingCall) {
    this.value = JSON.parse(call.body);
  }

  /** The value at a path of object keys, or undefined when any step is missing. */
  at(...path: string[]): unknown {
    return path.reduce<unknown>((node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), this.value);
  }

  text(...path: string[]): string {
    const found = this.at(...path);
    if (typeof found !== 'string') throw new Error(`request body has no text at ${path.join('.')}`);
    return found;
  }

  number(...path: string[]): number | undefined {
    const found = this.at(...path);
    return typeof found === 'number' ? found : undefined;
  }
}

/** The JSON bodies of the calls to one path. */
const bodiesTo = (calls: readonly OutgoingCall[], matches: (path: string) => boolean): JsonBody[] =>
  calls.filter((call) => matches(call.url.pathname)).map((call) => new JsonBody(call));

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
  openai: (calls) => bodiesTo(calls, (path) => path === '/v1/audio/speech').map((body) => ({ text: body.text('input'), prosody: prosody({ speed: body.number('speed') }) })),
  'openai-compatible': (calls) =>
    bodiesTo(calls, (path) => path === '/v1/audio/speech').map((body) => ({ text: body.text('input'), prosody: prosody({ speed: body.number('speed') }) })),
  elevenlabs: (calls) =>
    bodiesTo(calls, (path) => path.startsWith('/v1/text-to-speech/')).map((body) => ({ text: body.text('text'), prosody: prosody({ speed: body.number('voice_settings', 'speed') }) })),
  azure: (calls) => calls.filter((call) => call.url.pathname === '/cognitiveservices/v1').map((call) => readSsml(call.body, MICROSOFT_PROSODY)),
  google: (calls) =>
    bodiesTo(calls, (path) => path === '/v1/text:synthesize').map((body) => ({
      text: body.text('input', 'text'),
      prosody: prosody({ speed: body.number('audioConfig', 'speakingRate'), pitch: body.number('audioConfig', 'pitch'), volume: body.number('audioConfig', 'volumeGainDb') }),
    })),
  polly: (calls) =>
    bodiesTo(calls, (path) => path === '/v1/speech').map((body) =>
      body.text('TextType') === 'ssml' ? readSsml(body.text('Text'), { rate: 'speed', volume: 'volume' }) : { text: body.text('Text'), prosody: {} },
    ),
  minimax: (calls) =>
    bodiesTo(calls, (path) => path === '/v1/t2a_v2').map((body) => ({
      text: body.text('text'),
      prosody: prosody({ speed: body.number('voice_setting', 'speed'), pitch: body.number('voice_setting', 'pitch') }),
    })),
  // Aura-2's speed travels in the query, the text in the body.
  deepgram: (calls) =>
    calls
      .filter((call) => call.url.pathname === '/v1/speak')
      .map((call) => {
        const speed = call.url.searchParams.get('speed');
        return { text: new JsonBody(call).text('text'), prosody: prosody({ speed: speed === null ? undefined : Number(speed) }) };
      }),
  cartesia: (calls) =>
    bodiesTo(calls, (path) => path === '/tts/bytes').map((body) => ({ text: body.text('transcript'), prosody: prosody({ speed: body.number('generation_config', 'speed') }) })),
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
  // Whole percent and whole hertz, as Edge's reference clients send; the stand-in's first voice
  // (Aria) is female, whose reference is 210 Hz (plugins/edge/README.md).
  edge: { speed: (value) => signed(Math.round((value - 1) * 100), '%'), pitch: (value) => signed(Math.round(210 * (value - 1)), 'Hz') },
  google: { speed: (value) => value, pitch: (value) => round(semitones(value), 2), volume: (value) => round(decibels(value), 2) },
  polly: { speed: (value) => `${round(value * 100, 1)}%`, volume: (value) => signed(decibels(value), 'dB') },
  minimax: { speed: (value) => value, pitch: (value) => Math.round(semitones(value)) },
  cartesia: { speed: (value) => value },
  deepgram: { speed: (value) => value },
};
