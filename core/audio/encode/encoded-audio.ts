/** What an encoder produced: `sampleRate` is the rate a decoder yields (needed for raw pcm headers). */
export interface EncodedAudio {
  readonly audio: Uint8Array;
  readonly sampleRate: number;
}
