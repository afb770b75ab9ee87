import { gatewayError, type GatewayError } from '../errors';
import { audioDurationSeconds } from './audio-duration';
import type { AudioChunk } from './ports';
import { letterCount } from './letter-count';

/**
 * Letters and digits per second of the fastest speech any provider makes at speed 1.0 (fast
 * human speech is about 20): a text needs at least its letters over this to be read, so the
 * bound below is a true lower bound with a wide margin.
 */
const FASTEST_LETTERS_PER_SECOND = 40;

/**
 * `synthesis.maxAudioDuration`: no synthesis makes more audio than this. A text whose fastest
 * reading is already longer is refused before any provider is called; otherwise the audio is
 * measured as it is made and the work stops as soon as it passes the limit.
 */
export class AudioDurationLimit {
  constructor(private readonly maxSeconds: number) {}

  /** Refuses a text that cannot be read within the limit even at the fastest speech. */
  checkText(text: string, speed: number): void {
    const letters = letterCount(text);
    const fastestSeconds = letters / (FASTEST_LETTERS_PER_SECOND * speed);
    if (fastestSeconds > this.maxSeconds) throw this.exceeded(`even read at the fastest, this text makes at least ${Math.floor(fastestSeconds)} s of audio`);
  }

  /** Throws once `seconds` of audio are more than the limit. */
  check(seconds: number | undefined): void {
    if (seconds !== undefined && seconds > this.maxSeconds) throw this.exceeded('the synthesis was stopped');
  }

  /** Adds up the provider answers of one whole-file synthesis as they arrive (gateway DSP tempo included). */
  tally(dspSpeed: number): (chunk: AudioChunk) => void {
    let total = 0;
    return (chunk) => {
      const seconds = audioDurationSeconds(chunk.audio, chunk.format, chunk.sampleRate);
      if (seconds === undefined) return;
      total += seconds / dspSpeed;
      this.check(total);
    };
  }

  private exceeded(reason: string): GatewayError {
    return gatewayError('TTS_ERR_AUDIO_TOO_LONG', { limit: describeSeconds(this.maxSeconds), reason }, {
      details: [{ reason: 'audio_too_long', maxAudioSeconds: this.maxSeconds }],
    });
  }
}

function describeSeconds(seconds: number): string {
  if (seconds >= 60 && seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}
