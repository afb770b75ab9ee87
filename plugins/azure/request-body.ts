import { buildProsodySsml, signedSsmlValue, type NumberRange, type ProviderSynthesisRequest } from '../../core';
import { localeOfVoice } from './voices';

/** How one gateway multiplier becomes a `<prosody>` attribute. */
export interface ProsodyMapping {
  readonly attribute: 'rate' | 'pitch';
  /** The multipliers Azure honours (from its SSML reference). */
  readonly range: NumberRange;
  readonly toSsml: (multiplier: number) => string;
}

/**
 * The gateway's multipliers in Azure's SSML units.
 * - speed: `rate` is a relative change in percent; Azure honours 0.5x to 2x.
 * - pitch: relative semitones are exact for "2.0 = one octave up" (12 * log2(p) st); Azure
 *   honours 0.5x to 1.5x of the voice's pitch, that is -12 st to +7.02 st.
 * - volume is absent on purpose: Azure's volume is a 0..100 scale whose default (100) is
 *   already the loudest and whose steps are not documented as amplitude, so the gateway's
 *   exact gain on PCM does it.
 */
export const AZURE_PROSODY: Readonly<Record<'speed' | 'pitch', ProsodyMapping>> = {
  speed: { attribute: 'rate', range: { min: 0.5, max: 2 }, toSsml: (speed) => signedSsmlValue((speed - 1) * 100, '%') },
  pitch: { attribute: 'pitch', range: { min: 0.5, max: 1.5 }, toSsml: (pitch) => signedSsmlValue(12 * Math.log2(pitch), 'st') },
};

/** The prosody attributes for one request; a value of 1.0 or absent sends nothing. */
export function azureProsody(request: { speed?: number; pitch?: number }): { rate?: string; pitch?: string } {
  const attributes: { rate?: string; pitch?: string } = {};
  if (request.speed !== undefined && request.speed !== 1) attributes.rate = AZURE_PROSODY.speed.toSsml(request.speed);
  if (request.pitch !== undefined && request.pitch !== 1) attributes.pitch = AZURE_PROSODY.pitch.toSsml(request.pitch);
  return attributes;
}

/**
 * The SSML body of `POST /cognitiveservices/v1`: the voice by its id, `xml:lang` from the voice's
 * locale, the text XML-escaped inside one `<prosody>` when speed or pitch is asked for.
 */
export function azureSsml(request: Pick<ProviderSynthesisRequest, 'voice' | 'text' | 'speed' | 'pitch'>): string {
  return buildProsodySsml({ lang: localeOfVoice(request.voice), voice: request.voice, text: request.text, ...azureProsody(request) });
}
