/** The event loop's side of the espeak worker pool: every engine call goes through here. */
import { join } from 'node:path';
import { WorkerPool } from '../../core';
import { cancelled, unexpectedResult } from './errors';
import type { EngineFormat, EngineProsody, EngineVoice, EspeakResult, EspeakTask, SynthesizeResult } from './worker-messages';

export interface EngineSynthesisRequest {
  readonly voiceIdentifier: string;
  readonly text: string;
  readonly prosody: EngineProsody;
  readonly format: EngineFormat;
  readonly signal: AbortSignal;
}

export class EspeakSynthesisClient {
  private readonly pool: WorkerPool<EspeakTask, EspeakResult>;

  constructor(workers: number) {
    this.pool = new WorkerPool({ script: join(__dirname, 'worker.js'), size: workers, name: 'espeak' });
  }

  get workers(): number {
    return this.pool.size;
  }

  async listVoices(): Promise<readonly EngineVoice[]> {
    const result = await this.pool.run({ kind: 'list-voices' });
    if (result.kind !== 'voices') throw unexpectedResult(result.kind);
    return result.voices;
  }

  /** Loads the engine in every worker and synthesizes a word with `voiceIdentifier`. */
  async warmUp(voiceIdentifier: string): Promise<void> {
    await this.pool.broadcast({ kind: 'warm-up', voiceIdentifier });
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
