import { isGatewayError } from '../../errors';
import { ffmpegPathOf, type CodecOptions } from '../codec-options';
import { FfmpegPipe } from '../ffmpeg/ffmpeg-pipe';
import { undecodable } from './decode-error';
import type { StreamDecoder } from './stream-decoder';
import { WavStreamDecoder } from './wav-decoder';

/** ffmpeg reads ADTS from stdin and writes 32-bit float WAV (its header names the rate, SBR included). */
const DECODER_ARGUMENTS = [
  ...['-hide_banner', '-loglevel', 'error'],
  ...['-f', 'aac', '-i', 'pipe:0'],
  ...['-ac', '1', '-c:a', 'pcm_f32le', '-flush_packets', '1', '-f', 'wav', 'pipe:1'],
];

/** ADTS AAC decoded by an ffmpeg process, as it arrives. Callers check `aacAvailable` first. */
export class AacStreamDecoder implements StreamDecoder {
  private readonly pipe: FfmpegPipe;
  private readonly wav = new WavStreamDecoder();

  constructor(options?: CodecOptions) {
    this.pipe = new FfmpegPipe(ffmpegPathOf(options), DECODER_ARGUMENTS, (reason) => undecodable('aac', reason));
  }

  get sampleRate(): number | undefined {
    return this.wav.sampleRate;
  }

  async write(bytes: Uint8Array): Promise<Float32Array> {
    return this.guard(async () => this.wav.write(await this.pipe.write(bytes)));
  }

  async end(): Promise<Float32Array> {
    return this.guard(async () => {
      const body = await this.wav.write(await this.pipe.end());
      await this.wav.end();
      this.dispose();
      return body;
    });
  }

  dispose(): void {
    this.pipe.dispose();
    this.wav.dispose();
  }

  private async guard(work: () => Promise<Float32Array>): Promise<Float32Array> {
    try {
      return await work();
    } catch (error) {
      this.dispose();
      // ffmpeg's output is ours, not the provider's: a WAV problem there means ffmpeg found no audio.
      if (isGatewayError(error)) throw error;
      throw undecodable('aac', error instanceof Error ? error.message : String(error));
    }
  }
}
