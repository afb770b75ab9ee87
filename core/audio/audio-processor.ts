import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { gatewayError } from '../errors';
import { WorkerPool } from '../workers';
import type { AudioFormat } from './audio-format';
import type { AudioJob, AudioResult } from './audio-job';
import type { AudioTask, AudioTaskOutcome, AudioWorkerData } from './audio-worker-protocol';
import type { CodecOptions } from './codec-options';
import { decodableFormats } from './decode/create-stream-decoder';
import { encodableFormats } from './encode/encodable-formats';
import { AudioStreamClient } from './stream/audio-stream-client';
import type { AudioStreamSession, AudioStreamSpec } from './stream/audio-stream-types';

export type { AudioInput, AudioJob, AudioResult } from './audio-job';

/** Open streams per worker by default: each holds a few MB at most (an MP3 encoder, DSP tails). */
const DEFAULT_MAX_STREAMS_PER_WORKER = 64;

export interface AudioProcessorOptions extends CodecOptions {
  /** Worker threads; defaults to the number of cores. */
  readonly workers?: number;
  /** Streams one worker keeps open at most; more are refused with TTS_ERR_UNAVAILABLE. */
  readonly maxStreamsPerWorker?: number;
}

/**
 * The gateway's audio engine: decodes provider audio, joins chunks, applies speed/pitch/volume
 * and encodes, all in a pool of worker threads so the event loop never does CPU-heavy work.
 * Whole files go through `process`; streams through `openStream`.
 */
export class AudioProcessor {
  private readonly pool: WorkerPool<AudioTask, AudioTaskOutcome>;
  private readonly codecs: CodecOptions;
  private nextStreamId = 1;

  constructor(options: AudioProcessorOptions = {}) {
    this.codecs = { ffmpegPath: options.ffmpegPath };
    const workerData: AudioWorkerData = { ffmpegPath: options.ffmpegPath, maxStreams: options.maxStreamsPerWorker ?? DEFAULT_MAX_STREAMS_PER_WORKER };
    this.pool = new WorkerPool<AudioTask, AudioTaskOutcome>({
      script: join(__dirname, 'audio-worker.js'),
      size: options.workers ?? availableParallelism(),
      name: 'audio',
      workerData,
    });
  }

  /** Formats `process` and `openStream` can produce here (aac only when ffmpeg runs). */
  get encodableFormats(): readonly AudioFormat[] {
    return encodableFormats(this.codecs);
  }

  /** Formats the engine can take from providers here (aac only when ffmpeg runs). */
  get decodableFormats(): readonly AudioFormat[] {
    return decodableFormats(this.codecs);
  }

  /** Runs one job. Rejects with the job's GatewayError (e.g. TTS_ERR_UPSTREAM_BAD_RESPONSE, TTS_ERR_UNSUPPORTED_FORMAT). */
  async process(job: AudioJob, signal?: AbortSignal): Promise<AudioResult> {
    const result = await this.pool.run({ kind: 'process', job }, [], signal);
    if (!result || !('format' in result)) throw gatewayError('TTS_ERR_INTERNAL', { problem: 'audio worker returned no result' });
    return result;
  }

  /**
   * Opens a stream in the least busy worker. Rejects with TTS_ERR_UNSUPPORTED_FORMAT,
   * TTS_ERR_VALIDATION (bad multipliers or rate) or TTS_ERR_UNAVAILABLE (the worker is full).
   */
  /** Jobs and stream calls waiting for a worker. */
  get queuedTasks(): number {
    return this.pool.queued;
  }

  async openStream(spec: AudioStreamSpec, signal?: AbortSignal): Promise<AudioStreamSession> {
    const pin = this.pool.pin();
    const id = this.nextStreamId++;
    try {
      await this.pool.run({ kind: 'stream-open', stream: id, spec }, [], signal, { pin });
    } catch (error) {
      pin.release();
      throw error;
    }
    return new AudioStreamClient(this.pool, pin, id);
  }

  /** Compiles every codec in every worker, so the first real request pays no start-up cost. */
  async warmUp(): Promise<void> {
    await this.pool.broadcast({ kind: 'warm-up' });
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
