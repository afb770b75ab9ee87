import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { GatewayError } from '../errors';
import { WorkerPool } from '../workers';
import type { AudioJob, AudioResult } from './audio-job';
import type { AudioTask, AudioTaskOutcome } from './audio-worker-protocol';

export type { AudioInput, AudioJob, AudioResult } from './audio-job';

export interface AudioProcessorOptions {
  /** Worker threads; defaults to the number of cores. */
  readonly workers?: number;
}

/**
 * The gateway's audio engine: decodes provider audio, joins chunks, applies speed/pitch/volume
 * and encodes, all in a pool of worker threads so the event loop never does CPU-heavy work.
 */
export class AudioProcessor {
  private readonly pool: WorkerPool<AudioTask, AudioTaskOutcome>;

  constructor(options: AudioProcessorOptions = {}) {
    this.pool = new WorkerPool<AudioTask, AudioTaskOutcome>({
      script: join(__dirname, 'audio-worker.js'),
      size: options.workers ?? availableParallelism(),
      name: 'audio',
    });
  }

  /** Runs one job. Rejects with the job's GatewayError (e.g. TTS_ERR_UPSTREAM_BAD_RESPONSE, TTS_ERR_UNSUPPORTED_FORMAT). */
  async process(job: AudioJob, signal?: AbortSignal): Promise<AudioResult> {
    const result = await this.pool.run({ kind: 'process', job }, [], signal);
    if (!result) throw new GatewayError('TTS_ERR_INTERNAL', 'audio worker returned no result');
    return result;
  }

  /** Compiles every codec in every worker, so the first real request pays no start-up cost. */
  async warmUp(): Promise<void> {
    await this.pool.broadcast({ kind: 'warm-up' });
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
