import { badUpstreamResponse } from '../../core';
import { PROVIDER } from './errors';

const HEX = /^(?:[0-9a-fA-F]{2})+$/;

/** Decodes `data.audio`; anything but non-empty, even-length hex is an unusable answer. */
export function decodeHexAudio(value: unknown): Uint8Array {
  if (typeof value !== 'string' || value.length === 0) throw badUpstreamResponse(PROVIDER, 'no audio in data.audio');
  if (!HEX.test(value)) throw badUpstreamResponse(PROVIDER, 'data.audio is not hex-encoded audio');
  return new Uint8Array(Buffer.from(value, 'hex'));
}
