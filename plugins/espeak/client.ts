/** The event loop's side of the espeak worker pool: every engine call goes through here. */
import { join } from 'node:path';
import { cancelled, unexpectedResult } from './errors';
import { GrowingWorkerPool } from './growing-worker-pool';
import type { EngineFormat, EngineProsody, EngineVoice, EspeakResult, EspeakTask, SynthesizeResult } from './worker-messages';

/** A thread without a task for a minute is stopped; the next task starts one again (about 0.3 s). */
const DEFAULT_IDLE_MS = 60_000;

export interface EngineSynthesisRequest {
  readonly voiceIdentifier: string;
  readonly text: string;
  readonly prosody: EngineProsody;
  readonly format: EngineFormat;
  readonly signal: AbortSignal;
}

export class EspeakSynthesisClient {
  private readonly pool: GrowingWorkerPool<EspeakTask, EspeakResult>;

  /**
   * `workers` is the most threads it runs; they start on demand, the first at the first task,
   * and stop after `idleMs` without one.
   */
  constructor(workers: number, idleMs = DEFAULT_IDLE_MS) {
    this.pool = new GrowingWorkerPool({ script: join(__dirname, 'worker.js'), maxWorkers: workers, idleMs, name: 'espeak' });
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
      const result = await this.pool.run(task, [], signal);
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
