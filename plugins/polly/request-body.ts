import { escapeXml, signedSsmlValue, type ProviderSynthesisRequest } from '../../core';
import type { PollyEngine, PollyEngineName } from './models';
import type { PollyOutput } from './output-formats';

/** `Text` and `TextType` of a SynthesizeSpeech call. */
export interface PollyText {
  readonly Text: string;
  readonly TextType: 'text' | 'ssml';
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));

/** speed -> `rate="{s*100}%"` (Polly wants it unsigned), volume -> `volume="{20*log10(v)}dB"` (signed). */
function prosodyAttributes(request: Pick<ProviderSynthesisRequest, 'speed' | 'volume'>): string[] {
  const attributes: string[] = [];
  if (request.speed !== undefined && request.speed !== 1) attributes.push(`rate="${round(request.speed * 100, 1)}%"`);
  if (request.volume !== undefined && request.volume !== 1) attributes.push(`volume="${signedSsmlValue(20 * Math.log10(request.volume), 'dB')}"`);
  return attributes;
}

/**
 * Text as SSML character data. Quotes need no escaping outside attributes, so they stay as they
 * are: `&amp;` (5 characters) is then the longest escape, which the chunk size is measured against.
 */
function escapeSsmlText(text: string): string {
  return escapeXml(text).replace(/&quot;|&apos;/g, (entity) => (entity === '&quot;' ? '"' : "'"));
}

/**
 * Plain text when nothing is to be changed; otherwise the whole chunk inside one `<prosody>`,
 * which generative voices also accept because it encloses full sentences. The escaped chunk
 * stays within Polly's 6,000 characters because of the chunk size in models.ts.
 */
export function toPollyText(request: Pick<ProviderSynthesisRequest, 'text' | 'speed' | 'volume'>): PollyText {
  const attributes = prosodyAttributes(request);
  if (attributes.length === 0) return { Text: request.text, TextType: 'text' };
  return { Text: `<speak><prosody ${attributes.join(' ')}>${escapeSsmlText(request.text)}</prosody></speak>`, TextType: 'ssml' };
}

/** The body of SynthesizeSpeech (`POST /v1/speech`). */
export interface SynthesizeSpeechBody extends PollyText {
  readonly Engine: PollyEngineName;
  readonly OutputFormat: PollyOutput['outputFormat'];
  readonly SampleRate: string;
  readonly VoiceId: string;
}

/** The whole call: the engine of the model, the format in Polly's terms at its rate, the text. */
export function buildSynthesizeSpeechBody(request: ProviderSynthesisRequest, engine: PollyEngine, output: PollyOutput): SynthesizeSpeechBody {
  return { Engine: engine.engine, OutputFormat: output.outputFormat, SampleRate: String(output.sampleRate(engine)), VoiceId: request.voice, ...toPollyText(request) };
}
