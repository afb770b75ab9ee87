/** The event loop's side of the espeak worker pool: every engine call goes through here. */
import { join } from 'node:path';
import { cancelled, unexpectedResult } from './errors';
import { GrowingWorkerPool } from './growing-worker-pool';
import type { EngineFormat, EngineProsody, EngineVoice, EspeakResult, EspeakTask, SynthesizeResult } from './worker-messages';

/** The last thread without a task for a minute is stopped; the next task starts one again (about 0.3 s). */
const DEFAULT_IDLE_MS = 60_000;
/** Threads of a burst, the last one included, go 5 s after it: each holds about 25 MB, and the voice data 24 MB more. */
const SURPLUS_IDLE_MS = 5_000;

export interface EngineSynthesisRequest {
  readonly voiceIdentifier: string;
  readonly text: string;
  readonly prosody: EngineProsody;
  readonly format: EngineFormat;
  readonly signal: AbortSignal;
  /** When the caller needs the audio (Unix milliseconds): work that cannot be done by then is refused at once (503). */
  readonly deadline?: number;
  /** Part of work already admitted (the next chunk of a stream): ordered by its deadline, never refused for load. */
  readonly continuation?: boolean;
}

export interface EspeakAdmission {
  /** Tasks that may wait for a thread at most (per thread); more are refused at once (503). */
  readonly maxQueuedTasksPerWorker?: number;
}

/**
 * Milliseconds of one thread per character, until the pool has measured its own: about 1.5 on
 * two busy cores (3 s for 2,000 characters), a conservative start for admission decisions.
 */
const INITIAL_MS_PER_CHARACTER = 1.5;
/** Tasks waiting per thread by default: a minute of one-second chunks. */
const DEFAULT_QUEUED_TASKS_PER_WORKER = 60;
/**
 * A thread whose engine heap and encoder memory passed this is replaced once idle. The engine
 * keeps about 16 MB, the MP3 encoder as much again; more means a long text grew them for good.
 */
const RECYCLE_ABOVE_BYTES = 64 * 1024 * 1024;

export class EspeakSynthesisClient {
  private readonly pool: GrowingWorkerPool<EspeakTask, EspeakResult>;

  /**
   * `workers` is the most threads it runs; they start on demand, the first at the first task,
   * and stop after `idleMs` without one.
   */
  constructor(workers: number, idleMs = DEFAULT_IDLE_MS, admission: EspeakAdmission = {}) {
    this.pool = new GrowingWorkerPool({
      script: join(__dirname, 'worker.js'),
      maxWorkers: workers,
      idleMs,
      surplusIdleMs: Math.min(idleMs, SURPLUS_IDLE_MS),
      name: 'espeak',
      threads: {
        maxQueued: admission.maxQueuedTasksPerWorker ?? DEFAULT_QUEUED_TASKS_PER_WORKER,
        initialMsPerUnit: { synthesize: INITIAL_MS_PER_CHARACTER },
        recycleAboveBytes: RECYCLE_ABOVE_BYTES,
        // The gateway usually processes the audio after the engine: that gets the other half.
        admissionShare: 0.5,
      },
    });
  }

  /** The most worker threads this client starts. */
  get workers(): number {
    return this.pool.maxWorkers;
  }

  /** Worker threads running now. */
  get runningWorkers(): number {
    return this.pool.running;
  }

  /** Stops the threads that have no task now (each frees its engine). */
  stopIdleWorkers(): Promise<void> {
    return this.pool.stopIdle();
  }

  async listVoices(): Promise<readonly EngineVoice[]> {
    const result = await this.pool.run({ kind: 'list-voices' });
    if (result.kind !== 'voices') throw unexpectedResult(result.kind);
    return result.voices;
  }

  /**
   * Synthesizes in a worker. An abort while queued drops the task; an abort while running sets
   * a shared flag that the worker polls between audio blocks, so the thread is freed early.
   */
  async synthesize(request: EngineSynthesisRequest): Promise<SynthesizeResult> {
    const { signal } = request;
    if (signal.aborted) throw cancelled();
    const cancelFlag = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
    const raiseFlag = (): void => {
      Atomics.store(new Int32Array(cancelFlag), 0, 1);
    };
    signal.addEventListener('abort', raiseFlag, { once: true });
    try {
      const task: EspeakTask = {
        kind: 'synthesize',
        voiceIdentifier: request.voiceIdentifier,
        text: request.text,
        prosody: request.prosody,
        format: request.format,
        cancelFlag,
      };
      const result = await this.pool.run(task, [], signal, { deadline: request.deadline, admitted: request.continuation, cost: { kind: 'synthesize', units: request.text.length } });
      if (result.kind !== 'audio') throw unexpectedResult(result.kind);
      if (result.cancelled || signal.aborted) throw cancelled();
      return result;
    } finally {
      signal.removeEventListener('abort', raiseFlag);
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
