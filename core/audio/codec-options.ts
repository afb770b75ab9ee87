/** Settings of the codecs that depend on the host rather than on npm packages. */
export interface CodecOptions {
  /**
   * The ffmpeg binary that encodes and decodes AAC: a path, or a name looked up on PATH.
   * Absent: `ffmpeg` on PATH. When it cannot run, AAC is neither encodable nor decodable.
   */
  readonly ffmpegPath?: string;
}

export const DEFAULT_FFMPEG = 'ffmpeg';

export function ffmpegPathOf(options: CodecOptions | undefined): string {
  return options?.ffmpegPath ?? DEFAULT_FFMPEG;
}
