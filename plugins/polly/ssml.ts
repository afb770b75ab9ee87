import type { ProviderSynthesisRequest } from '../../core';
import { escapeXml } from './xml-escape';

/** `Text` and `TextType` of a SynthesizeSpeech call. */
export interface PollyText {
  readonly Text: string;
  readonly TextType: 'text' | 'ssml';
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));

/** speed -> `rate="{s*100}%"`, volume -> `volume="{20*log10(v)}dB"` (signed, as Polly wants). */
function prosodyAttributes(request: Pick<ProviderSynthesisRequest, 'speed' | 'volume'>): string[] {
  const attributes: string[] = [];
  if (request.speed !== undefined && request.speed !== 1) attributes.push(`rate="${round(request.speed * 100, 1)}%"`);
  if (request.volume !== undefined && request.volume !== 1) {
    const decibels = round(20 * Math.log10(request.volume), 2);
    attributes.push(`volume="${decibels >= 0 ? '+' : ''}${decibels}dB"`);
  }
  return attributes;
}

/**
 * Plain text when nothing is to be changed (no escaping, so Polly's 6,000-character total limit
 * is never hit by entities); otherwise the whole chunk inside one `<prosody>`, which generative
 * voices also accept because it encloses full sentences.
 */
export function toPollyText(request: Pick<ProviderSynthesisRequest, 'text' | 'speed' | 'volume'>): PollyText {
  const attributes = prosodyAttributes(request);
  if (attributes.length === 0) return { Text: request.text, TextType: 'text' };
  return { Text: `<speak><prosody ${attributes.join(' ')}>${escapeXml(request.text)}</prosody></speak>`, TextType: 'ssml' };
}
