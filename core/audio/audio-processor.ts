import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { gatewayError } from '../errors';
import { WorkerPool, type PoolReservation, type WorkerPoolStats } from '../workers';
import type { AudioFormat } from './audio-format';
import type { AudioJob, AudioResult } from './audio-job';
import type { AudioTask, AudioTaskOutcome, AudioWorkerData } from './audio-worker-protocol';
import type { CodecOptions } from './codec-options';
import { decodableFormats } from './decode/create-stream-decoder';
import { encodableFormats } from './encode/encodable-formats';
import { knownFfmpegProbe } from './ffmpeg/ffmpeg-probe';
import { AudioStreamClient } from './stream/audio-stream-client';
import type { AudioStreamSession, AudioStreamSpec } from './stream/audio-stream-types';
import { audioJobCost } from './audio-job-cost';
import { transferableBuffers } from './transferable-buffers';

export type { AudioInput, AudioJob, AudioResult } from './audio-job';

/** Open streams per worker by default: each holds a few MB at most (an MP3 encoder, DSP tails). */
const DEFAULT_MAX_STREAMS_PER_WORKER = 64;
/**
 * A worker whose WebAssembly memories passed this once idle is replaced: every codec loaded
 * holds about 92 MB together, and each MP3 stream open at a time adds a LAME instance of a few MB
 * that the worker keeps until the instance is collected.
 */
const DEFAULT_RECYCLE_ABOVE_BYTES = 128 * 1024 * 1024;
/**
 * A worker without a job or open stream for this long is stopped: it holds 15 MB or more (its
 * heap, its codecs, what its last jobs grew), and starting one again costs about 0.2 s.
 */
const DEFAULT_IDLE_WORKER_MS = 5_000;

/** How long a job takes, until the pool has measured its own: milliseconds per second of audio in. */
const INITIAL_MS_PER_AUDIO_SECOND: Readonly<Record<string, number>> = {
  // Measured with 300 s of speech in 7 s WAV inputs on one worker of a 2-core VM, the other core
  // busy (mp3 1.1 s, opus 6 s, flac 0.5 s, wav and pcm 0.1 s), then doubled for two busy cores.
  'process:mp3': 8,
  'process:opus': 40,
  'process:flac': 4,
  'process:wav': 1,
  'process:pcm': 1,
};

/** How long a caller may wait for the audio engine and how to stop it. */
export interface AudioWorkControl {
  readonly signal?: AbortSignal;
  /** When the work must be done (Unix milliseconds); work that cannot finish by then is refused (503). */
  readonly deadline?: number;
  /** Room promised to this job by `reserve`. */
  readonly reservation?: PoolReservation;
}

export interface AudioProcessorOptions extends CodecOptions {
  /** Worker threads; defaults to the number of cores. */
  readonly workers?: number;
  /** Streams one worker keeps open at most; more are refused with TTS_ERR_UNAVAILABLE. */
  readonly maxStreamsPerWorker?: number;
  /** Jobs that may wait for a worker at most; more are refused at once (503). */
  readonly maxQueuedTasks?: number;
  /** A worker holding more memory than this (WebAssembly, buffers) is replaced once idle. */
  readonly recycleAboveBytes?: number;
  /** A worker without work for this many milliseconds is stopped until work comes (default 5 s). */
  readonly idleWorkerMs?: number;
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
    const probe = knownFfmpegProbe(this.codecs);
    const workerData: AudioWorkerData = {
      ffmpegPath: options.ffmpegPath,
      maxStreams: options.maxStreamsPerWorker ?? DEFAULT_MAX_STREAMS_PER_WORKER,
      ...(probe && { ffmpegProbe: probe }),
    };
    this.pool = new WorkerPool<AudioTask, AudioTaskOutcome>({
      script: join(__dirname, 'audio-worker.js'),
      size: options.workers ?? availableParallelism(),
      name: 'audio',
      workerData,
      maxQueued: options.maxQueuedTasks,
      initialMsPerUnit: INITIAL_MS_PER_AUDIO_SECOND,
      recycleAboveBytes: options.recycleAboveBytes ?? DEFAULT_RECYCLE_ABOVE_BYTES,
      idleMs: options.idleWorkerMs ?? DEFAULT_IDLE_WORKER_MS,
      // Estimates miss what other pools take of the same cores: keep a quarter of the time in hand.
      admissionShare: 0.75,
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

  /**
   * Runs one job. Rejects with the job's GatewayError (e.g. TTS_ERR_UPSTREAM_BAD_RESPONSE,
   * TTS_ERR_UNSUPPORTED_FORMAT), with TTS_ERR_UNAVAILABLE when it cannot finish by the deadline,
   * and with TTS_ERR_CANCELLED when the signal stops it (between its steps, while it runs).
   * Inputs marked `transferable` are moved to the worker (their views here are emptied).
   */
  async process(job: AudioJob, control: AudioWorkControl = {}): Promise<AudioResult> {
    const result = await this.pool.run({ kind: 'process', job }, transferableBuffers(job.inputs), control.signal, { deadline: control.deadline, cost: audioJobCost(job), reservation: control.reservation });
    if (!result || !('format' in result)) throw gatewayError('TTS_ERR_INTERNAL', { problem: 'audio worker returned no result' });
    return result;
  }

  /**
   * Promises room for a `process` job of about `audioSeconds` of audio into `output`, due by
   * `deadline`; throws TTS_ERR_UNAVAILABLE (503, Retry-After) at once when it would not fit.
   */
  reserve(output: AudioFormat, audioSeconds: number, deadline: number): PoolReservation {
    return this.pool.reserve({ deadline, cost: { kind: `process:${output}`, units: audioSeconds } });
  }

  /**
   * Opens a stream in the least busy worker. Rejects with TTS_ERR_UNSUPPORTED_FORMAT,
   * TTS_ERR_VALIDATION (bad multipliers or rate) or TTS_ERR_UNAVAILABLE (the worker is full).
   */
  /** Jobs and stream calls waiting for a worker. */
  get queuedTasks(): number {
    return this.pool.queued;
  }

  async openStream(spec: AudioStreamSpec, control: AudioWorkControl = {}): Promise<AudioStreamSession> {
    const pin = this.pool.pin();
    const id = this.nextStreamId++;
    try {
      await this.pool.run({ kind: 'stream-open', stream: id, spec }, [], control.signal, { pin, deadline: control.deadline });
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

  /** Queue and memory figures of the worker pool. */
  stats(): WorkerPoolStats {
    return this.pool.stats();
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
