import type { AudioFormat } from '../audio/audio-format';
import { GatewayError, isGatewayError } from '../errors';
import type { PluginLogger } from '../plugin/contract';
import { boundedMap } from './bounded-map';
import { checkProviderAudio } from './checked-audio';
import type { AudioChunk, AudioEngine, AudioSink, ModelDirectory, ServedModel } from './ports';
import { describePlan, planSynthesis, type SynthesisPlan } from './synthesis-plan';
import type { SynthesisRequest } from './synthesis-request';

export interface SynthesisServiceOptions {
  /** Chunks of one request synthesized at the same time. */
  readonly chunkConcurrency: number;
  /** Deadline of one request end to end, in milliseconds. */
  readonly timeoutMs: number;
}

export interface SynthesisContext {
  readonly requestId: string;
  /** Aborted when the client goes away. */
  readonly signal?: AbortSignal;
}

export interface SynthesisResult {
  readonly fileName: string;
  readonly size: number;
  readonly format: AudioFormat;
  readonly sampleRate?: number;
  /** The `X-TTS-Applied` value: who applied speed, pitch, volume and the format. */
  readonly applied: string;
  /** The provider instance that served the request. */
  readonly provider: string;
}

/**
 * The path of one request: resolve the model, check the voice, plan, synthesize the chunks with
 * bounded concurrency, process the audio where the plan says so, store the file.
 */
export class SynthesisService {
  constructor(
    private readonly directory: ModelDirectory,
    private readonly audioEngine: AudioEngine,
    private readonly audioSink: AudioSink,
    private readonly logger: PluginLogger,
    private readonly options: SynthesisServiceOptions,
  ) {}

  async synthesize(request: SynthesisRequest, context: SynthesisContext): Promise<SynthesisResult> {
    const deadline = AbortSignal.timeout(this.options.timeoutMs);
    const signal = context.signal ? AbortSignal.any([context.signal, deadline]) : deadline;
    try {
      const resolved = await this.directory.resolve(request.model);
      await this.directory.ensureVoice(request.model, request.voice, signal);
      const plan = planSynthesis(request, resolved.capabilities, {
        decodable: this.audioEngine.decodableFormats,
        encodable: this.audioEngine.encodableFormats,
      });
      const applied = describePlan(plan);
      this.logger.info('synthesis planned', { requestId: context.requestId, model: request.model, provider: resolved.instanceId, applied });
      const chunks = await this.synthesizeChunks(plan, request, resolved, context.requestId, signal);
      const output = await this.finish(plan, chunks, request, signal);
      const stored = await this.audioSink.save(output.audio, request.format, output.sampleRate);
      return { ...stored, format: request.format, sampleRate: output.sampleRate, applied, provider: resolved.instanceId };
    } catch (error) {
      throw this.explain(error, context.signal, deadline);
    }
  }

  private async synthesizeChunks(
    plan: SynthesisPlan,
    request: SynthesisRequest,
    resolved: ServedModel,
    requestId: string,
    signal: AbortSignal,
  ): Promise<AudioChunk[]> {
    const failFast = new AbortController();
    const chunkSignal = AbortSignal.any([signal, failFast.signal]);
    return boundedMap(plan.chunks, this.options.chunkConcurrency, async (text) => {
      try {
        const audio = await resolved.provider.synthesize({ model: resolved.providerModel, voice: request.voice, text, format: plan.providerFormat, ...plan.native, signal: chunkSignal, requestId });
        if (audio.warnings.length > 0) this.logger.warn('provider could not honour every setting', { requestId, provider: resolved.instanceId, warnings: audio.warnings });
        return checkProviderAudio(resolved.instanceId, audio, this.logger);
      } catch (error) {
        failFast.abort(error);
        throw error;
      }
    });
  }

  private async finish(plan: SynthesisPlan, chunks: AudioChunk[], request: SynthesisRequest, signal: AbortSignal): Promise<{ audio: Uint8Array; sampleRate?: number }> {
    const [only] = chunks;
    if (!plan.needsAudioProcessing && chunks.length === 1 && only.format === request.format) return only;
    return this.audioEngine.process({ inputs: chunks, ...plan.dsp, output: request.format }, signal);
  }

  /** Turns an abort into the right coded error: the deadline is a 504, a gone client a cancel. */
  private explain(error: unknown, clientSignal: AbortSignal | undefined, deadline: AbortSignal): unknown {
    if (deadline.aborted && !(isGatewayError(error) && error.code === 'TTS_ERR_TIMEOUT')) {
      return new GatewayError('TTS_ERR_TIMEOUT', `synthesis did not finish within ${this.options.timeoutMs} ms`, { cause: error });
    }
    if (clientSignal?.aborted && !isGatewayError(error)) return new GatewayError('TTS_ERR_CANCELLED', 'the client went away', { cause: error });
    return error;
  }
}
