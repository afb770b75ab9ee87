import type { AudioFormat } from '../audio/audio-format';
import type { ResolvedModel } from '../catalog/catalog';

/** What the synthesis service needs from the catalog. */
export interface ModelDirectory {
  /** Throws TTS_ERR_MODEL_NOT_FOUND for an unknown model. */
  resolve(model: string): ResolvedModel | Promise<ResolvedModel>;
  /** Throws TTS_ERR_VOICE_NOT_FOUND when the voice is not the model's (after one refresh). */
  ensureVoice(model: string, voice: string, signal?: AbortSignal): Promise<void>;
}

export interface AudioChunk {
  readonly audio: Uint8Array;
  readonly format: AudioFormat;
  readonly sampleRate?: number;
  /** The provider gave the buffer away: the audio engine may move it instead of copying it. */
  readonly transferable?: boolean;
}

/** What a streaming session makes of its inputs: the same multipliers as a whole job. */
export interface AudioStreamSpec {
  readonly output: AudioFormat;
  readonly speed: number;
  readonly pitch: number;
  readonly volume: number;
  /** Output sample rate; absent = chosen from the first input. */
  readonly sampleRate?: number;
}

/** Encoded output of a streaming session, handed on as soon as it exists. */
export interface EncodedPiece {
  /** Bytes ready now; may be empty. */
  readonly audio: Uint8Array;
  /** The rate a decoder of the output yields. */
  readonly sampleRate: number;
  /** Output audio produced so far, in seconds. */
  readonly durationSeconds: number;
}

/** A stateful decode -> DSP -> encode chain living in one audio worker. */
export interface AudioStreamSession {
  /** The next whole provider answer, or (`continuation`) more bytes of the one before. */
  push(input: AudioChunk, options?: { continuation?: boolean }, signal?: AbortSignal): Promise<EncodedPiece>;
  /** Flushes and returns the last bytes; the session is released. */
  end(signal?: AbortSignal): Promise<EncodedPiece>;
  /** Releases the session without output; idempotent, never throws. */
  close(): Promise<void>;
}

/** How long a piece of work may take, and how to stop it. */
export interface WorkControl {
  /** Aborted when the client goes away or the deadline passes: queued work is dropped, running work stops. */
  readonly signal?: AbortSignal;
  /** When the work must be done (Unix milliseconds): work that cannot finish by then is refused at once (503). */
  readonly deadline?: number;
  /** The room promised to this work by `reserveProcessing`, taken up as it starts. */
  readonly reservation?: ProcessingReservation;
}

/** Room in the audio engine promised to a whole file's processing, which comes once its text is synthesized. */
export interface ProcessingReservation {
  /** Gives the room back (the job came, or never will). Idempotent. */
  release(): void;
}

/** The audio engine (decode, join, DSP, encode), off the event loop. */
export interface AudioEngine {
  readonly decodableFormats: readonly AudioFormat[];
  readonly encodableFormats: readonly AudioFormat[];
  /**
   * Present while the two lists above are still being found out (whether the host's ffmpeg runs
   * decides aac, and is asked once, off the event loop): a plan waits for it rather than block.
   */
  readonly formatsPending?: Promise<void>;
  process(
    job: { inputs: readonly AudioChunk[]; speed: number; pitch: number; volume: number; output: AudioFormat },
    control?: WorkControl,
  ): Promise<{ audio: Uint8Array; format: AudioFormat; sampleRate: number; durationSeconds?: number }>;
  openStream(spec: AudioStreamSpec, control?: WorkControl): Promise<AudioStreamSession>;
  /**
   * Promises room for processing about `audioSeconds` of audio into `output` by `deadline`, or
   * throws a 503 GatewayError at once when the engine could not do it in time, so a request is
   * refused before its text is synthesized rather than after.
   */
  reserveProcessing?(output: AudioFormat, audioSeconds: number, deadline: number): ProcessingReservation;
}

/** One model and voice that may serve a request. */
export interface RouteTarget {
  readonly model: string;
  readonly voice: string;
}

/** How an answer names the target that served it (`X-TTS-Served-By`): `espeak-ng/en-us`. */
export function servedByName(target: RouteTarget): string {
  return `${target.model}/${target.voice}`;
}

/** Maps a requested model and voice to the served ones, in the order to try them (aliases, fallback routes). */
export interface ModelRoutes {
  targets(model: string, voice: string): RouteTarget[];
}

/** Who a stored file is for, and how to stop storing it. */
export interface SaveControl {
  /** The account the file counts against (its storage quota). */
  readonly owner?: string;
  /** Aborted when the deadline passes or the client goes away: the write stops and leaves nothing. */
  readonly signal?: AbortSignal;
}

/** Where finished audio is kept for download. */
export interface AudioSink {
  save(audio: Uint8Array, format: AudioFormat, sampleRate?: number, control?: SaveControl): Promise<{ fileName: string; size: number }>;
}
