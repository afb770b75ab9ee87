/** Messages between the espeak synthesis client (event loop) and its worker threads. */

/** One voice as the engine lists it, before it is mapped to the gateway's VoiceInfo. */
export interface EngineVoice {
  /** Path of the voice file under espeak-ng-data/voices, for example `gmw/en-US`. */
  readonly identifier: string;
  /** Display name, for example `English (America)`. */
  readonly name: string;
  /** eSpeak language names in priority order, for example `['en-us', 'en']`. */
  readonly languages: readonly string[];
  /** eSpeak's gender code: 0 none, 1 male, 2 female. */
  readonly gender: number;
}

/** Engine settings of one synthesis, already mapped from the gateway's multipliers. */
export interface EngineProsody {
  /** Words per minute. */
  readonly rate: number;
  /** Base pitch, 0..100 (50 = the voice's own). */
  readonly pitch: number;
  /** Pitch range (intonation excursion), 0..100 (50 = the voice's own). */
  readonly range: number;
  /** Linear gain applied to the samples after synthesis (1 = unchanged). */
  readonly gain: number;
}

export type EngineFormat = 'pcm' | 'wav' | 'mp3';

export interface SynthesizeTask {
  readonly kind: 'synthesize';
  readonly voiceIdentifier: string;
  readonly text: string;
  readonly prosody: EngineProsody;
  readonly format: EngineFormat;
  /** One Int32 shared with the client; set to 1 to stop the synthesis between audio blocks. */
  readonly cancelFlag: SharedArrayBuffer;
}

export interface ListVoicesTask {
  readonly kind: 'list-voices';
}

export type EspeakTask = SynthesizeTask | ListVoicesTask;

export interface SynthesizeResult {
  readonly kind: 'audio';
  readonly audio: Uint8Array;
  readonly sampleRate: number;
  /** True when the synthesis stopped early because the cancel flag was set. */
  readonly cancelled: boolean;
}

export interface ListVoicesResult {
  readonly kind: 'voices';
  readonly voices: readonly EngineVoice[];
}

export type EspeakResult = SynthesizeResult | ListVoicesResult;
