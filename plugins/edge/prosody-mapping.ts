import { signedSsmlValue, type NumberRange } from '../../core';

/** How one gateway multiplier becomes a `<prosody>` attribute. */
export interface ProsodyMapping {
  readonly attribute: 'rate' | 'pitch';
  /** The multipliers the service honours (Microsoft's SSML reference, shared with Azure). */
  readonly range: NumberRange;
  readonly toSsml: (multiplier: number) => string;
}

/**
 * The gateway's multipliers in the read-aloud service's SSML units (the Azure neural engine):
 * speed as a relative `rate` in percent (0.5x..2x honoured), pitch in relative semitones,
 * exact for "2.0 = one octave up" (0.5x..1.5x honoured: -12 st..+7.02 st). Volume is left to
 * the gateway's exact gain: the service's volume scale is 0..100 with 100 as the default.
 */
export const EDGE_PROSODY: Readonly<Record<'speed' | 'pitch', ProsodyMapping>> = {
  speed: { attribute: 'rate', range: { min: 0.5, max: 2 }, toSsml: (speed) => signedSsmlValue((speed - 1) * 100, '%') },
  pitch: { attribute: 'pitch', range: { min: 0.5, max: 1.5 }, toSsml: (pitch) => signedSsmlValue(12 * Math.log2(pitch), 'st') },
};

/** The prosody attributes for one request; a value of 1.0 or absent sends nothing. */
export function edgeProsody(request: { speed?: number; pitch?: number }): { rate?: string; pitch?: string } {
  const attributes: { rate?: string; pitch?: string } = {};
  if (request.speed !== undefined && request.speed !== 1) attributes.rate = EDGE_PROSODY.speed.toSsml(request.speed);
  if (request.pitch !== undefined && request.pitch !== 1) attributes.pitch = EDGE_PROSODY.pitch.toSsml(request.pitch);
  return attributes;
}
