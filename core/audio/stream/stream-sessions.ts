import { gatewayError } from '../../errors';
import type { AudioInput } from '../audio-job';
import type { CodecOptions } from '../codec-options';
import { TurnoverTable } from '../../objects/turnover-table';
import { AudioStreamPipeline } from './audio-stream-pipeline';
import type { AudioStreamSpec, EncodedPiece } from './audio-stream-types';

/**
 * The open streams of one audio worker, by id. A stream that fails is released at once, so a
 * broken session holds nothing; the number open at a time is capped.
 */
export class StreamSessions {
  private readonly sessions = new TurnoverTable<AudioStreamPipeline>();

  constructor(
    private readonly limit: number,
    private readonly options: CodecOptions | undefined,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  open(id: number, spec: AudioStreamSpec): void {
    if (this.sessions.has(id)) throw gatewayError('TTS_ERR_INTERNAL', { problem: `audio stream ${id} is already open` });
    if (this.sessions.size >= this.limit) {
      throw gatewayError('TTS_ERR_UNAVAILABLE', { provider: 'The audio engine', reason: `each worker serves at most ${this.limit} streams at a time` }, { retryAfterSeconds: 1 });
    }
    this.sessions.set(id, AudioStreamPipeline.open(spec, this.options));
  }

  push(id: number, input: AudioInput, continuation: boolean): Promise<EncodedPiece> {
    return this.releasingOnFailure(id, (session) => session.push(input, continuation));
  }

  async end(id: number): Promise<EncodedPiece> {
    try {
      return await this.session(id).end();
    } finally {
      this.close(id);
    }
  }

  close(id: number): void {
    this.sessions.get(id)?.dispose();
    this.sessions.delete(id);
  }

  private async releasingOnFailure(id: number, work: (session: AudioStreamPipeline) => Promise<EncodedPiece>): Promise<EncodedPiece> {
    try {
      return await work(this.session(id));
    } catch (error) {
      this.close(id);
      throw error;
    }
  }

  private session(id: number): AudioStreamPipeline {
    const session = this.sessions.get(id);
    if (!session) throw gatewayError('TTS_ERR_INTERNAL', { problem: `audio stream ${id} is not open` });
    return session;
  }
}
