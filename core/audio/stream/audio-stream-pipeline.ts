import { gatewayError } from '../../errors';
import type { AudioInput } from '../audio-job';
import { checkFactor } from '../audio-pipeline';
import type { CodecOptions } from '../codec-options';
import { concatBytes } from '../concat';
import { gainSamples } from '../dsp/gain';
import { SEAM_CROSSFADE_SECONDS } from '../dsp/join';
import { SeamJoiner } from '../dsp/seam-joiner';
import { SonicStream } from '../dsp/sonic';
import { StreamResampler } from '../dsp/stream-resampler';
import { createStreamEncoder } from '../encode/create-stream-encoder';
import { isEncodableFormat, unsupportedOutput } from '../encode/encodable-formats';
import { encoderInputRate } from '../encode/encoder-rates';
import type { StreamEncoder } from '../encode/stream-encoder';
import { AnswerDecoder } from './answer-decoder';
import type { AudioStreamSpec, EncodedPiece } from './audio-stream-types';

/** Input bytes taken down the chain at a time. */
const SLICE_BYTES = 64 * 1024;

/** The stages that exist once the stream's rate is known (from the spec or the first decoded audio). */
interface Chain {
  readonly rate: number;
  readonly joiner: SeamJoiner;
  readonly sonic?: SonicStream;
  readonly encoder: StreamEncoder;
}

/**
 * The worker-side state of one audio stream: decode each answer (checked against its declared
 * format), resample it to the stream's rate, crossfade the seams, run one sonic stream for
 * tempo and pitch, apply gain, encode incrementally. It holds only the tails each stage keeps.
 */
export class AudioStreamPipeline {
  private answer?: AnswerDecoder;
  private resampler?: StreamResampler;
  private chain?: Chain;
  private samplesEncoded = 0;
  private finished = false;

  private constructor(
    private readonly spec: AudioStreamSpec,
    private readonly options: CodecOptions | undefined,
  ) {}

  /** Checks the spec; throws TTS_ERR_UNSUPPORTED_FORMAT or TTS_ERR_VALIDATION. */
  static open(spec: AudioStreamSpec, options?: CodecOptions): AudioStreamPipeline {
    if (!isEncodableFormat(spec.output, options)) throw unsupportedOutput(spec.output, options);
    checkFactor('speed', spec.speed);
    checkFactor('pitch', spec.pitch);
    checkFactor('volume', spec.volume);
    const rate = spec.sampleRate;
    if (rate !== undefined && (!Number.isInteger(rate) || rate < 1000 || rate > 384_000)) {
      throw gatewayError('TTS_ERR_VALIDATION', { problem: 'sampleRate must be an integer between 1000 and 384000' }, { details: [{ field: 'sampleRate', reason: `got ${rate}` }] });
    }
    return new AudioStreamPipeline(spec, options);
  }

  async push(input: AudioInput, continuation: boolean): Promise<EncodedPiece> {
    this.checkOpen();
    const parts: Uint8Array[] = [];
    if (!continuation || !this.answer) {
      parts.push(await this.finishAnswer());
      this.answer = new AnswerDecoder(input.format, input.sampleRate, this.options);
      this.chain?.joiner.startAnswer();
    } else if (input.format !== this.answer.format) {
      throw gatewayError('TTS_ERR_INTERNAL', { problem: `a continuation declared ${input.format} but its answer is ${this.answer.format}` });
    }
    // A long answer goes down the chain a slice at a time, so no stage holds all of it at once.
    for (let start = 0; start < input.audio.length; start += SLICE_BYTES) {
      parts.push(await this.decoded(await this.answer.write(input.audio.subarray(start, start + SLICE_BYTES))));
    }
    return this.piece(parts);
  }

  async end(): Promise<EncodedPiece> {
    this.checkOpen();
    const parts = [await this.finishAnswer()];
    this.finished = true;
    const chain = this.chain;
    if (!chain) throw gatewayError('TTS_ERR_INTERNAL', { problem: 'audio stream ended without input' });
    parts.push(await this.encode(chain, this.shape(chain, chain.joiner.end())));
    if (chain.sonic) parts.push(await this.encode(chain, this.gain(chain.sonic.flush())));
    parts.push(await chain.encoder.end());
    const piece = this.piece(parts);
    this.dispose();
    return piece;
  }

  dispose(): void {
    this.finished = true;
    this.answer?.dispose();
    this.answer = undefined;
    this.chain?.sonic?.dispose();
    this.chain?.encoder.dispose();
  }

  private checkOpen(): void {
    if (this.finished) throw gatewayError('TTS_ERR_INTERNAL', { problem: 'audio stream already ended' });
  }

  /** Ends the current answer: its decoder's and resampler's last samples join the stream. */
  private async finishAnswer(): Promise<Uint8Array> {
    const answer = this.answer;
    if (!answer) return new Uint8Array(0);
    try {
      // Still the current answer: what its decoder gives only at the end (FLAC, Opus, AAC) needs its rate.
      const body = await this.decoded(await answer.end());
      const tail = this.resampler ? await this.joined(this.resampler.end()) : new Uint8Array(0);
      return concatBytes([body, tail]);
    } finally {
      this.answer = undefined;
      this.resampler = undefined;
      answer.dispose();
    }
  }

  /** Takes decoded samples of the current answer to the stream's rate and on down the chain. */
  private async decoded(samples: Float32Array): Promise<Uint8Array> {
    if (samples.length === 0) return new Uint8Array(0);
    const answerRate = this.answer?.sampleRate;
    if (answerRate === undefined) throw gatewayError('TTS_ERR_INTERNAL', { problem: 'decoded audio without a sample rate' });
    const chain = this.chain ?? (await this.startChain(answerRate));
    if (answerRate !== chain.rate && this.resampler?.inputRate !== answerRate) this.resampler = new StreamResampler(answerRate, chain.rate);
    return this.joined(this.resampler ? this.resampler.write(samples) : samples);
  }

  private async joined(samples: Float32Array): Promise<Uint8Array> {
    const chain = this.chain;
    if (!chain || samples.length === 0) return new Uint8Array(0);
    return this.encode(chain, this.shape(chain, chain.joiner.add(samples)));
  }

  /** Tempo, pitch and gain on final (joined) samples. */
  private shape(chain: Chain, samples: Float32Array): Float32Array {
    return this.gain(chain.sonic ? chain.sonic.write(samples) : samples);
  }

  private gain(samples: Float32Array): Float32Array {
    return this.spec.volume === 1 ? samples : gainSamples(samples, this.spec.volume);
  }

  private async encode(chain: Chain, samples: Float32Array): Promise<Uint8Array> {
    this.samplesEncoded += samples.length;
    return samples.length === 0 ? new Uint8Array(0) : chain.encoder.write(samples);
  }

  private async startChain(firstRate: number): Promise<Chain> {
    const rate = encoderInputRate(this.spec.output, this.spec.sampleRate ?? firstRate);
    const joiner = new SeamJoiner(Math.round(SEAM_CROSSFADE_SECONDS * rate));
    joiner.startAnswer();
    const sonic = this.spec.speed !== 1 || this.spec.pitch !== 1 ? await SonicStream.open(rate, this.spec.speed, this.spec.pitch) : undefined;
    try {
      const encoder = await createStreamEncoder(this.spec.output, rate, this.options, firstRate);
      this.chain = { rate, joiner, sonic, encoder };
      return this.chain;
    } catch (error) {
      sonic?.dispose();
      throw error;
    }
  }

  private piece(parts: readonly Uint8Array[]): EncodedPiece {
    const rate = this.chain?.rate;
    return {
      audio: concatBytes(parts),
      sampleRate: this.chain?.encoder.outputRate ?? 0,
      durationSeconds: rate ? this.samplesEncoded / rate : 0,
    };
  }
}
