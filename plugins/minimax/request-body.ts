import type { ProviderSynthesisRequest } from '../../core';

/** The JSON body of `POST /v1/t2a_v2`: hex audio in one JSON answer, or streamed as server-sent events. */
export interface T2aBody {
  readonly model: string;
  readonly text: string;
  readonly stream: boolean;
  /** Non-streaming only (a streamed answer is always hex). */
  readonly output_format?: 'hex';
  /** Streaming only: leave the whole clip out of the closing event (it repeats every chunk's audio). */
  readonly stream_options?: { readonly exclude_aggregated_audio: true };
  readonly voice_setting: { readonly voice_id: string; readonly speed?: number; readonly pitch?: number };
  readonly audio_setting: { readonly sample_rate: number; readonly bitrate?: number; readonly format: string; readonly channel: 1 };
}

/** MP3 bitrate asked for (MiniMax: 32000, 64000, 128000, 256000); it applies to mp3 only. */
const MP3_BITRATE = 128000;

/**
 * The gateway's pitch multiplier in MiniMax's whole semitones: `round(12 * log2(p))`. The rounding
 * moves the pitch by at most half a semitone (a factor 2^(1/24), under 3 %); the result says what
 * was really sent so the caller can report it.
 */
export function pitchToSemitones(pitch: number): { semitones: number; exact: boolean } {
  const exactSemitones = 12 * Math.log2(pitch);
  const semitones = Math.max(-12, Math.min(12, Math.round(exactSemitones)));
  return { semitones, exact: Math.abs(exactSemitones - semitones) < 0.01 };
}

/** How the audio comes back: in one JSON answer, or as server-sent events while it is made. */
export type T2aDelivery = 'whole' | 'streamed';

/**
 * Maps a planned request to MiniMax's fields: `speed = s` (planner keeps it in 0.5..2), pitch in
 * semitones, no `vol` (volume is the gateway's), one mono channel at the configured rate.
 */
export function buildT2aBody(request: ProviderSynthesisRequest, sampleRate: number, warnings: string[], delivery: T2aDelivery = 'whole'): T2aBody {
  let pitch: number | undefined;
  if (request.pitch !== undefined) {
    const mapped = pitchToSemitones(request.pitch);
    pitch = mapped.semitones;
    if (!mapped.exact) {
      warnings.push(`MiniMax takes pitch in whole semitones: ${request.pitch} was sent as ${pitch >= 0 ? '+' : ''}${pitch} semitones (x${(2 ** (pitch / 12)).toFixed(3)})`);
    }
  }
  return {
    model: request.model,
    text: request.text,
    ...(delivery === 'streamed' ? { stream: true, stream_options: { exclude_aggregated_audio: true } } : { stream: false, output_format: 'hex' }),
    voice_setting: {
      voice_id: request.voice,
      ...(request.speed !== undefined ? { speed: request.speed } : {}),
      ...(pitch !== undefined && pitch !== 0 ? { pitch } : {}),
    },
    audio_setting: {
      sample_rate: sampleRate,
      ...(request.format === 'mp3' ? { bitrate: MP3_BITRATE } : {}),
      format: request.format,
      channel: 1,
    },
  };
}
