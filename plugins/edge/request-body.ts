import { buildProsodySsml, signedSsmlValue, type NumberRange, type ProviderSynthesisRequest, type VoiceGender } from '../../core';
import { localeOfVoice, serviceVoiceName } from './voices';

/**
 * Typical speaking fundamental frequency of adult voices: the middle of the usual ranges,
 * 85..155 Hz for men and 165..255 Hz for women (R. J. Baken, "Clinical Measurement of Speech and
 * Voice", 1987). A voice of unknown gender gets 160 Hz, close to the geometric mean of the two.
 */
export const REFERENCE_PITCH_HZ: Readonly<Record<VoiceGender, number>> = { Male: 120, Female: 210, Unknown: 160 };

/**
 * The multipliers the service honours (Microsoft's SSML reference, shared with Azure): speed
 * 0.5x..2x, pitch 0.5x..1.5x of the voice's own. Volume is left to the gateway's exact gain:
 * the service's volume scale is 0..100 with 100 as the default.
 */
export const EDGE_PROSODY: Readonly<Record<'speed' | 'pitch', { readonly range: NumberRange }>> = {
  speed: { range: { min: 0.5, max: 2 } },
  pitch: { range: { min: 0.5, max: 1.5 } },
};

/** Speed as a relative `rate` in whole percent (`+25%`): current clients send only integers. */
export function rateAttribute(speed: number): string {
  return signedSsmlValue(Math.round((speed - 1) * 100), '%');
}

/**
 * Pitch as a relative change in whole hertz (`+105Hz`), the only pitch unit current clients send:
 * the multiplier applied to the voice's reference frequency, `round(reference * (p - 1))`.
 */
export function pitchAttribute(pitch: number, gender: VoiceGender): string {
  return signedSsmlValue(Math.round(REFERENCE_PITCH_HZ[gender] * (pitch - 1)), 'Hz');
}

/** The prosody attributes for one request; a value of 1.0 or absent sends nothing. */
export function edgeProsody(request: { speed?: number; pitch?: number }, gender: VoiceGender): { rate?: string; pitch?: string } {
  const attributes: { rate?: string; pitch?: string } = {};
  if (request.speed !== undefined && request.speed !== 1) attributes.rate = rateAttribute(request.speed);
  if (request.pitch !== undefined && request.pitch !== 1) attributes.pitch = pitchAttribute(request.pitch, gender);
  return attributes;
}

/**
 * The SSML of one turn, as the Edge browser writes it: the long voice name, `xml:lang` from the
 * voice's locale, the text XML-escaped inside one `<prosody>` when speed or pitch is asked for.
 */
export function edgeSsml(request: Pick<ProviderSynthesisRequest, 'voice' | 'text' | 'speed' | 'pitch'>, gender: VoiceGender): string {
  return buildProsodySsml({ lang: localeOfVoice(request.voice), voice: serviceVoiceName(request.voice), text: request.text, ...edgeProsody(request, gender) });
}
