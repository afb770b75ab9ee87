import { letterCount } from './letter-count';

/**
 * Letters and digits per second of typical synthesized speech at speed 1.0 (people read about 12
 * to 15): what a text is expected to make, for planning work before any audio exists. Not a
 * bound (see AudioDurationLimit for one): a slow voice makes more.
 */
const TYPICAL_LETTERS_PER_SECOND = 12;

/** Seconds of audio a text is expected to make at `speed`. */
export function expectedAudioSeconds(text: string, speed: number): number {
  const letters = letterCount(text);
  return letters / (TYPICAL_LETTERS_PER_SECOND * speed);
}
