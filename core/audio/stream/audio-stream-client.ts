import { gatewayError } from '../../errors';
import type { WorkerPin, WorkerPool } from '../../workers';
import type { AudioInput } from '../audio-job';
import type { AudioTask, AudioTaskOutcome } from '../audio-worker-protocol';
import { transferableBuffers } from '../transferable-buffers';
import type { AudioStreamSession, EncodedPiece, PushOptions } from './audio-stream-types';

type State = 'open' | 'ended' | 'closed' | 'failed';

/**
 * The caller's side of a stream: each call is a task pinned to the worker that holds the
 * stream's state. Inputs are copied to the worker unless their owner gave their buffer away
 * (then it is moved); output bytes are moved back.
 */
export class AudioStreamClient implements AudioStreamSession {
  private state: State = 'open';

  constructor(
    private readonly pool: WorkerPool<AudioTask, AudioTaskOutcome>,
    private readonly pin: WorkerPin,
    private readonly id: number,
  ) {}

  async push(input: AudioInput, options: PushOptions = {}, signal?: AbortSignal): Promise<EncodedPiece> {
    this.checkOpen();
    try {
      const task: AudioTask = { kind: 'stream-push', stream: this.id, input, continuation: options.continuation === true };
      return piece(await this.pool.run(task, transferableBuffers([input]), signal, { pin: this.pin, admitted: true }));
    } catch (error) {
      await this.fail();
      throw error;
    }
  }

  async end(signal?: AbortSignal): Promise<EncodedPiece> {
    this.checkOpen();
    this.state = 'ended';
    try {
      return piece(await this.pool.run({ kind: 'stream-end', stream: this.id }, [], signal, { pin: this.pin, admitted: true }));
    } catch (error) {
      // The end may have been dropped before it ran: the worker must still let go.
      await this.release();
      throw error;
    } finally {
      this.pin.release();
    }
  }

  async close(): Promise<void> {
    if (this.state !== 'open') return;
    this.state = 'closed';
    await this.release();
  }

  private checkOpen(): void {
    if (this.state !== 'open') throw gatewayError('TTS_ERR_INTERNAL', { problem: `audio stream is ${this.state}` });
  }

  private async fail(): Promise<void> {
    if (this.state !== 'open') return;
    this.state = 'failed';
    await this.release();
  }

  /** Frees the worker's state; a crashed worker has none left, so errors are moot. */
  private async release(): Promise<void> {
    try {
      if (this.pin.alive) await this.pool.run({ kind: 'stream-close', stream: this.id }, [], undefined, { pin: this.pin, admitted: true });
    } catch {
      // Nothing left to free.
    } finally {
      this.pin.release();
    }
  }
}

function piece(outcome: AudioTaskOutcome): EncodedPiece {
  if (!outcome || 'format' in outcome) throw gatewayError('TTS_ERR_INTERNAL', { problem: 'audio worker answered a stream call with something else' });
  return outcome;
}
