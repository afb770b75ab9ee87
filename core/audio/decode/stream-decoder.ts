/**
 * Decodes one provider answer that may arrive in pieces: each write returns the mono samples
 * that are ready, `end` the rest. Bad bytes throw TTS_ERR_UPSTREAM_BAD_RESPONSE.
 */
export interface StreamDecoder {
  /** The decoded rate, known once the first samples came out (or from the start for raw pcm). */
  readonly sampleRate: number | undefined;
  write(bytes: Uint8Array): Promise<Float32Array>;
  /** Decodes what is left; throws when the whole answer held no audio. */
  end(): Promise<Float32Array>;
  /** Frees the decoder without output. Idempotent. */
  dispose(): void;
}
