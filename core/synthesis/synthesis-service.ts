import { setMaxListeners } from 'node:events';
import { abortedByDeadline, LinkedAbort } from '../abort/linked-abort';
import { extended } from '../objects/extended';
import type { Logger } from '../plugin/contract';
import type { ResolvedModel } from '../catalog/catalog';
import type { ProviderSynthesisRequest } from '../plugin/contract';
import { audioDurationSeconds } from './audio-duration';
import { AudioDurationLimit } from './audio-duration-limit';
import { audioPieces, type StreamProgress } from './audio-pieces';
import { boundedMap } from './bounded-map';
import { checkProviderAudio, type CheckedChunk } from './checked-audio';
import { explainFailure } from './explain-failure';
import { LookAheadBudget } from './look-ahead-budget';
import { expectedAudioSeconds } from './expected-audio';
import { servedByName, type AudioChunk, type AudioEngine, type AudioSink, type ModelDirectory, type ModelRoutes, type ProcessingReservation, type RouteTarget, type WorkControl } from './ports';
import { splitForStreaming } from './stream-chunks';
import { failedPastTheTarget, tryTargets } from './target-fallback';
import { abortable, rest } from './stream-handover';
import { appliedAfterCheck, appliedOf, planSynthesis, type AppliedPlan, type SynthesisPlan } from './synthesis-plan';
import type { SynthesisRequest } from './synthesis-request';
import type { SynthesisContext, SynthesisResult, SynthesisStream } from './synthesis-results';

export type { CacheStatus, SynthesisContext, SynthesisResult, SynthesisStream } from './synthesis-results';

/** Provider calls one stream runs at a time, the chunk being sent included: one ahead hides a call's latency. */
const STREAM_LOOK_AHEAD = 2;
/**
 * Calls ahead shared by all open streams: eight streams each run one call ahead; with more, each
 * waits for the chunk it sends (the providers are busy with the streams' chunks anyway), so 32
 * concurrent streams hold one chunk's audio each, not three.
 */
const STREAM_CALLS_AHEAD = 8;
/** Listeners on a stream's signal besides its chunks' calls: the audio session's job, the provider stream, the pieces. */
const LISTENERS_BESIDE_CHUNKS = 10;

/** A stream's start (its first piece), bounded by one deadline whichever targets it falls back to. */
interface StreamStart {
  readonly deadline: number;
  /** Set when a target's start was cut by the deadline: a 504, and no further fallback. */
  timedOut: boolean;
}

export interface SynthesisServiceOptions {
  /** Chunks of one request synthesized at the same time. */
  readonly chunkConcurrency: number;
  /** Deadline of one request end to end, in milliseconds. */
  readonly timeoutMs: number;
  /** Longest audio one synthesis may make, in seconds (`synthesis.maxAudioDuration`); absent = no limit. */
  readonly maxAudioSeconds?: number;
}

/** One request after aliases: the served model and voice, and how the service will call it. */
interface Prepared {
  readonly request: SynthesisRequest;
  readonly resolved: ResolvedModel;
  readonly servedBy: string;
  readonly instructions?: string;
  readonly instructionsIgnored: boolean;
  /** Another target follows this one: its provider's breaker refuses rather than waits for a trial. */
  readonly fallbackAvailable: boolean;
}

/**
 * The path of one request: resolve the model, check the voice, plan, synthesize the chunks with
 * bounded concurrency, process the audio where the plan says so, store the file.
 */
export class SynthesisService {
  private readonly durationLimit?: AudioDurationLimit;
  private readonly lookAhead: LookAheadBudget;

  constructor(
    private readonly directory: ModelDirectory,
    private readonly audioEngine: AudioEngine,
    private readonly audioSink: AudioSink,
    private readonly logger: Logger,
    private readonly options: SynthesisServiceOptions,
    private readonly routes?: ModelRoutes,
  ) {
    if (options.maxAudioSeconds !== undefined) this.durationLimit = new AudioDurationLimit(options.maxAudioSeconds);
    this.lookAhead = new LookAheadBudget(STREAM_CALLS_AHEAD, Math.min(options.chunkConcurrency, STREAM_LOOK_AHEAD));
  }

  /** Synthesizes the whole text and stores it as one file. */
  async synthesize(request: SynthesisRequest, context: SynthesisContext): Promise<SynthesisResult> {
    // One signal for the client leaving and the deadline, let go of when the answer is ready.
    const bound = new LinkedAbort([context.signal], this.options.timeoutMs);
    const deadlineAt = Date.now() + this.options.timeoutMs;
    const signal = bound.signal;
    try {
      this.durationLimit?.checkText(request.text, request.speed);
      return await this.withFallback(request, context.requestId, () => signal.aborted, async (target, fallbackAvailable) => {
        const prepared = await this.prepare(request, target, signal, fallbackAvailable);
        const plan = this.plan(prepared);
        const applied = appliedOf(plan);
        this.logPlan(prepared, applied, context.requestId);
        // The audio engine's share is promised before any text is synthesized: a request it could
        // not process in time is refused now (503), not after its synthesis burned CPU.
        const reservation = this.reserveProcessing(plan, prepared.request, deadlineAt);
        try {
          const chunks = await this.synthesizeChunks(plan, prepared, context.requestId, signal, deadlineAt);
          const output = await this.finish(plan, chunks, prepared.request, { signal, deadline: deadlineAt, reservation });
          this.durationLimit?.check(output.durationSeconds);
          // Every stage checks the deadline: nothing is stored for a request that has run out of time.
          signal.throwIfAborted();
          // A store that fails is the gateway's failure, not the target's: no fallback to another provider.
          const stored = await this.audioSink.save(output.audio, request.format, output.sampleRate, { owner: context.accountId, signal }).catch(failedPastTheTarget);
          const durationSeconds = output.durationSeconds ?? audioDurationSeconds(output.audio, request.format, output.sampleRate);
          const checked = appliedAfterCheck(applied, request.format, chunks.find((chunk) => chunk.receivedAs !== undefined));
          return this.describe(prepared, checked, { fileName: stored.fileName, size: stored.size, sampleRate: output.sampleRate, ...(durationSeconds !== undefined && { durationSeconds }) });
        } finally {
          reservation?.release();
        }
      });
    } catch (error) {
      throw this.explain(error, context.signal, abortedByDeadline(signal));
    } finally {
      bound.dispose();
    }
  }

  /**
   * Streams the synthesis: resolves when the first audio is ready (so early failures are still
   * ordinary errors, and a route can still fall back), then hands on each piece as it is encoded.
   * Each step (a provider call, the first piece) must finish within the deadline; a slow reader slows
   * the stream down instead (back-pressure): the next chunks are synthesized only a few ahead of it.
   */
  async stream(request: SynthesisRequest, context: SynthesisContext): Promise<SynthesisStream> {
    const start: StreamStart = { deadline: Date.now() + this.options.timeoutMs, timedOut: false };
    try {
      this.durationLimit?.checkText(request.text, request.speed);
      const stopped = () => context.signal?.aborted === true || start.timedOut;
      return await this.withFallback(request, context.requestId, stopped, (target, fallbackAvailable) => this.streamOn(request, target, context, start, fallbackAvailable));
    } catch (error) {
      throw this.explain(error, context.signal, start.timedOut);
    }
  }

  private async streamOn(request: SynthesisRequest, target: RouteTarget, context: SynthesisContext, start: StreamStart, fallbackAvailable: boolean): Promise<SynthesisStream> {
    // Aborts when the client leaves, the stream is stopped early, or its start runs past the deadline (the clock stops at the first piece).
    const stop = new LinkedAbort([context.signal], Math.max(0, start.deadline - Date.now()));
    const signal = stop.signal;
    const progress: StreamProgress = { bytes: 0 };
    // The first provider audio, once checked: a mislabelled one is named in `X-TTS-Applied`.
    let firstAudio: CheckedChunk | undefined;
    let pieces: AsyncGenerator<Uint8Array> | undefined;
    try {
      const prepared = await this.prepare(request, target, signal, fallbackAvailable);
      const plan = this.streamPlan(prepared);
      // Each chunk's call stays linked to the stream's signal until the stream ends (work a call
      // left behind stops with it): one listener per chunk by design, not a leak to warn about.
      // One chunk stays within Node's default of 10; raising it reshapes the signal object
      // (measured: 1.5% of a pass-through's CPU), so only a text of several chunks does.
      if (plan.chunks.length > 1) setMaxListeners(plan.chunks.length + LISTENERS_BESIDE_CHUNKS, signal);
      const applied = appliedOf(plan);
      this.logPlan(prepared, applied, context.requestId);
      pieces = audioPieces({
        plan,
        output: request.format,
        sampleRate: request.sampleRate,
        engine: this.audioEngine,
        lookAhead: this.lookAhead,
        // Only the first call may be refused for load: later ones continue a stream already under way.
        callChunk: async (index, cancel) => {
          // The first chunk is the stream's start: its retries are planned within the start's deadline.
          const chunk = await this.callChunk(plan, prepared, plan.chunks[index], context.requestId, [signal, cancel], index > 0, index === 0 ? start.deadline : undefined);
          if (index === 0) firstAudio = chunk;
          return chunk;
        },
        onMislabelledStream: (chunk) => (firstAudio = chunk),
        openProviderStream: this.providerStream(plan, prepared, context.requestId, signal, start.deadline),
        provider: prepared.resolved.instance.instanceId,
        signal,
        progress,
        startDeadline: start.deadline,
        checkDuration: (seconds) => this.durationLimit?.check(seconds),
      });
      const first = await abortable(pieces.next(), signal);
      stop.stopClock();
      const checked = appliedAfterCheck(applied, request.format, firstAudio, request.sampleRate);
      return this.describe(prepared, checked, { sampleRate: progress.sampleRate, progress, chunks: rest(first, pieces, stop, this.explainer(context.signal)) });
    } catch (error) {
      if (abortedByDeadline(signal)) start.timedOut = true;
      stop.abort();
      void pieces?.return(undefined).catch(() => undefined);
      throw error;
    }
  }

  /** The requested model's targets (a route's, or the model itself), tried in turn (`tryTargets`). */
  private withFallback<Result>(request: SynthesisRequest, requestId: string, stopped: () => boolean, attempt: (target: RouteTarget, fallbackAvailable: boolean) => Promise<Result>): Promise<Result> {
    const targets = this.routes ? this.routes.targets(request.model, request.voice) : [{ model: request.model, voice: request.voice }];
    return tryTargets(targets, stopped, attempt, (failed, next, error) =>
      this.logger.warn('falling back to the next target', { requestId, model: request.model, failed: failed.model, next: next.model, code: error.code }),
    );
  }

  /** Resolves one target's model and checks its voice. */
  private async prepare(request: SynthesisRequest, served: RouteTarget, signal: AbortSignal, fallbackAvailable: boolean): Promise<Prepared> {
    const servedRequest = { ...request, model: served.model, voice: served.voice };
    // Only just after start: the engine's formats, read by the plan, are still being found out.
    if (this.audioEngine.formatsPending) await this.audioEngine.formatsPending;
    const resolved = await this.directory.resolve(served.model);
    await this.directory.ensureVoice(served.model, served.voice, signal);
    const takesInstructions = resolved.modelInfo.capabilities.instructions === true;
    return {
      request: servedRequest,
      resolved,
      servedBy: servedByName(served),
      ...(takesInstructions && request.instructions !== undefined ? { instructions: request.instructions } : {}),
      instructionsIgnored: request.instructions !== undefined && !takesInstructions,
      fallbackAvailable,
    };
  }

  /** Room in the audio engine for a whole file that will need it (more than one chunk, or DSP). */
  private reserveProcessing(plan: SynthesisPlan, request: SynthesisRequest, deadline: number): ProcessingReservation | undefined {
    if (!plan.needsAudioProcessing && plan.chunks.length === 1) return undefined;
    // The job's input is the provider's audio: at the speed the provider itself applied.
    const providerSpeed = request.speed / plan.dsp.speed;
    return this.audioEngine.reserveProcessing?.(request.format, expectedAudioSeconds(plan.chunks.join(' '), providerSpeed), deadline);
  }

  private plan(prepared: Prepared): SynthesisPlan {
    return planSynthesis(prepared.request, prepared.resolved.modelInfo.capabilities, this.codecs());
  }

  /**
   * A provider that streams natively gets the whole text in one call when nothing is to be done
   * to its audio; otherwise the text goes in short sentence chunks, so audio starts early.
   */
  private streamPlan(prepared: Prepared): SynthesisPlan {
    const whole = this.plan(prepared);
    if (prepared.resolved.provider.synthesizeStream && !whole.needsAudioProcessing) return whole;
    return planSynthesis(prepared.request, prepared.resolved.modelInfo.capabilities, this.codecs(), { split: splitForStreaming });
  }

  private codecs() {
    return { decodable: this.audioEngine.decodableFormats, encodable: this.audioEngine.encodableFormats };
  }

  /** `startDeadline` (the stream's, from its arrival) tells the retry layer not to wait for a retry past it. */
  private providerStream(plan: SynthesisPlan, prepared: Prepared, requestId: string, signal: AbortSignal, startDeadline: number) {
    const { provider } = prepared.resolved;
    if (!provider.synthesizeStream) return undefined;
    return async () => {
      const stream = await provider.synthesizeStream!(this.providerRequest(plan, prepared, plan.chunks[0], requestId, signal, startDeadline));
      this.logWarnings(stream.warnings, prepared, requestId);
      return stream;
    };
  }

  /** `deadline`: when `signal` aborts for time, so that the retry layer never plans past it. */
  private providerRequest(plan: SynthesisPlan, prepared: Prepared, text: string, requestId: string, signal: AbortSignal, deadline?: number): ProviderSynthesisRequest {
    const { resolved, request } = prepared;
    return {
      model: resolved.providerModelName,
      voice: request.voice,
      text,
      format: plan.providerFormat,
      ...plan.native,
      ...(prepared.instructions !== undefined ? { instructions: prepared.instructions } : {}),
      signal,
      ...(deadline !== undefined ? { deadline } : {}),
      ...(prepared.fallbackAvailable ? { fallbackAvailable: true } : {}),
      requestId,
    };
  }

  /** One provider call under its own deadline (or the stream's `startDeadline`, if earlier), its audio checked; a `continuation` is never refused for load. */
  private async callChunk(plan: SynthesisPlan, prepared: Prepared, text: string, requestId: string, signals: readonly AbortSignal[], continuation: boolean, startDeadline?: number): Promise<CheckedChunk> {
    const bound = new LinkedAbort(signals, this.options.timeoutMs);
    const deadlineAt = Math.min(Date.now() + this.options.timeoutMs, startDeadline ?? Number.POSITIVE_INFINITY);
    try {
      const call = this.providerRequest(plan, prepared, text, requestId, bound.signal, deadlineAt);
      const audio = await prepared.resolved.provider.synthesize(continuation ? { ...call, continuation } : call);
      this.logWarnings(audio.warnings, prepared, requestId);
      return checkProviderAudio(prepared.resolved.instance.instanceId, audio, this.logger, requestId);
    } catch (error) {
      throw this.explain(error, undefined, abortedByDeadline(bound.signal));
    } finally {
      // The call's signal still aborts with the stream, so that work it left behind stops too.
      bound.stopClock();
    }
  }

  /**
   * The provider calls of a whole file, `chunkConcurrency` at a time. Each answer's length is
   * added up as it arrives: past `maxAudioDuration`, or at the first failure, the calls still
   * running are cancelled.
   */
  private async synthesizeChunks(plan: SynthesisPlan, prepared: Prepared, requestId: string, signal: AbortSignal, deadline: number): Promise<CheckedChunk[]> {
    // Aborts with the request, or at the first failure.
    const failFast = new LinkedAbort([signal]);
    const chunkSignal = failFast.signal;
    const tally = this.durationLimit?.tally(plan.dsp.speed);
    return boundedMap(plan.chunks, this.options.chunkConcurrency, async (text) => {
      try {
        const audio = await prepared.resolved.provider.synthesize(this.providerRequest(plan, prepared, text, requestId, chunkSignal, deadline));
        this.logWarnings(audio.warnings, prepared, requestId);
        const chunk = checkProviderAudio(prepared.resolved.instance.instanceId, audio, this.logger, requestId);
        tally?.(chunk);
        return chunk;
      } catch (error) {
        failFast.abort(error);
        throw error;
      }
    });
  }

  /** What an answer says about its synthesis, then the facts of its own (its file, or its stream). */
  private describe<Facts extends object>(prepared: Prepared, applied: AppliedPlan, facts: Facts) {
    // Object.assign, not a spread followed by more fields: see extended().
    return Object.assign(
      {
        format: prepared.request.format,
        applied,
        provider: prepared.resolved.instance.instanceId,
        servedBy: prepared.servedBy,
        instructionsIgnored: prepared.instructionsIgnored,
      },
      facts,
    );
  }

  /** Debug: the access log line of the request already carries the provider and what was applied. */
  private logPlan(prepared: Prepared, applied: AppliedPlan, requestId: string): void {
    this.logger.debug('synthesis planned', { requestId, model: prepared.request.model, provider: prepared.resolved.instance.instanceId, applied });
  }

  private logWarnings(warnings: readonly string[], prepared: Prepared, requestId: string): void {
    if (warnings.length > 0) this.logger.warn('provider could not honour every setting', { requestId, provider: prepared.resolved.instance.instanceId, warnings });
  }

  private explainer(clientSignal: AbortSignal | undefined): (error: unknown) => unknown {
    return (error) => this.explain(error, clientSignal, false);
  }

  private explain(error: unknown, clientSignal: AbortSignal | undefined, deadlinePassed: boolean): unknown {
    return explainFailure(error, clientSignal, deadlinePassed, this.options.timeoutMs);
  }

  private async finish(plan: SynthesisPlan, chunks: AudioChunk[], request: SynthesisRequest, control: WorkControl): Promise<{ audio: Uint8Array; sampleRate?: number; durationSeconds?: number }> {
    const [only] = chunks;
    if (!plan.needsAudioProcessing && chunks.length === 1 && only.format === request.format) {
      return extended(only, { durationSeconds: audioDurationSeconds(only.audio, only.format, only.sampleRate) });
    }
    return this.audioEngine.process({ inputs: chunks, ...plan.dsp, output: request.format }, control);
  }
}
