import type { AudioFormat } from '../audio-format';
import type { CodecOptions } from '../codec-options';
import { concatBytes, concatSamples } from '../concat';
import { checkDeclaredFormat, SNIFF_BYTES } from '../decode/check-declared-format';
import { createStreamDecoder } from '../decode/create-stream-decoder';
import { undecodable } from '../decode/decode-error';
import type { StreamDecoder } from '../decode/stream-decoder';

/**
 * One provider answer inside a stream: its first bytes are checked against the declared
 * format (as whole inputs are), then it is decoded as its pieces arrive.
 */
export class AnswerDecoder {
  private head: Uint8Array = new Uint8Array(0);
  private decoder?: StreamDecoder;
  private bytesIn = 0;
  private samplesOut = 0;

  constructor(
    readonly format: AudioFormat,
    private readonly declaredRate: number | undefined,
    private readonly options: CodecOptions | undefined,
  ) {}

  get sampleRate(): number | undefined {
    return this.decoder?.sampleRate;
  }

  async write(bytes: Uint8Array): Promise<Float32Array> {
    this.bytesIn += bytes.length;
    if (this.decoder) return this.count(await this.decoder.write(bytes));
    this.head = concatBytes([this.head, bytes]);
    // Raw pcm has no signature to wait for.
    if (this.head.length < SNIFF_BYTES && this.format !== 'pcm') return new Float32Array(0);
    return this.open();
  }

  /** Decodes the rest; throws when the answer held no audio at all. */
  async end(): Promise<Float32Array> {
    if (this.bytesIn === 0) throw undecodable(this.format, 'empty audio');
    const first = this.decoder ? new Float32Array(0) : await this.open();
    const rest = this.count(await this.opened().end());
    if (this.samplesOut === 0) throw undecodable(this.format, 'no audio samples');
    return concatSamples([first, rest]);
  }

  dispose(): void {
    this.decoder?.dispose();
    this.head = new Uint8Array(0);
  }

  private async open(): Promise<Float32Array> {
    checkDeclaredFormat(this.head, this.format);
    this.decoder = createStreamDecoder(this.format, this.declaredRate, this.options);
    const head = this.head;
    this.head = new Uint8Array(0);
    return this.count(await this.decoder.write(head));
  }

  private opened(): StreamDecoder {
    if (!this.decoder) throw new Error('answer decoder was never opened');
    return this.decoder;
  }

  private count(samples: Float32Array): Float32Array {
    this.samplesOut += samples.length;
    return samples;
  }
}
