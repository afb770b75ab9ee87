/**
 * The stream shapes are the synthesis service's ports (core/synthesis/ports.ts): the audio engine
 * implements them, so they are defined once, there.
 */
export type { AudioStreamSession, AudioStreamSpec, EncodedPiece } from '../../synthesis/ports';

/** How `push` takes an input: `continuation` = more bytes of the answer before, no seam. */
export interface PushOptions {
  readonly continuation?: boolean;
}
