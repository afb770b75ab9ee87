import { gatewayError } from '../../errors';
import { ffmpegPathOf, type CodecOptions } from '../codec-options';
import { FfmpegPipe } from '../ffmpeg/ffmpeg-pipe';
import { bytesOf, floatToInt16 } from '../pcm';
import type { StreamEncoder } from './stream-encoder';

/** A usual rate for mono speech in AAC-LC. */
const BITRATE = '64k';

function encoderArguments(rate: number): string[] {
  return [
    ...['-hide_banner', '-loglevel', 'error'],
    ...['-f', 's16le', '-ar', String(rate), '-ac', '1', '-i', 'pipe:0'],
    // Each packet is written out at once, so the stream flows while it is made.
    ...['-c:a', 'aac', '-b:a', BITRATE, '-flush_packets', '1', '-f', 'adts', 'pipe:1'],
  ];
}

/**
 * AAC-LC in ADTS frames, made by an ffmpeg process (no maintained AAC encoder exists on npm):
 * s16le mono goes in through its stdin, ADTS comes out of its stdout as it is produced (ffmpeg
 * buffers about a second, so its frames are returned by later calls, the rest by `end`).
 * Callers check `aacAvailable` first; `rate` must be an AAC rate (see encoderInputRate).
 */
export class AacStreamEncoder implements StreamEncoder {
  private readonly pipe: FfmpegPipe;

  constructor(
    readonly outputRate: number,
    options?: CodecOptions,
  ) {
    this.pipe = new FfmpegPipe(ffmpegPathOf(options), encoderArguments(outputRate), (reason) => gatewayError('TTS_ERR_INTERNAL', { problem: `AAC encoding failed: ${reason}` }));
  }

  write(samples: Float32Array): Promise<Uint8Array> {
    return this.pipe.write(bytesOf(floatToInt16(samples)));
  }

  async end(): Promise<Uint8Array> {
    try {
      return await this.pipe.end();
    } finally {
      this.pipe.dispose();
    }
  }

  dispose(): void {
    this.pipe.dispose();
  }
}
