import type { AudioFormat } from '../audio/audio-format';

/**
 * The plugin contract, version 1. A plugin package's default export is a {@link TtsPlugin}
 * built with `definePlugin()`. The version string lets the loader tell old and new plugins apart.
 */
export const PLUGIN_CONTRACT_V1 = 'tts-gateway.plugin/v1' as const;

/** Inclusive range of a multiplier (1.0 = the provider's default). */
export interface NumberRange {
  readonly min: number;
  readonly max: number;
}

/** A JSON Schema object, validated by ajv before `create()` is called. */
export type JsonSchema = Record<string, unknown>;

/** A limit on input as a provider counts it once escaped as XML: in code points or in UTF-8 bytes. */
export interface EscapedInputLimit {
  readonly max: number;
  readonly unit: 'characters' | 'bytes';
}

/** What one model can do natively; the gateway does the rest on PCM. */
export interface ModelCapabilities {
  /** Formats the provider can return natively. */
  readonly formats: readonly AudioFormat[];
  /** Native speed multiplier range; absent = speed is not native (the gateway does it). */
  readonly speed?: NumberRange;
  /** Native pitch multiplier range (2.0 = one octave up); absent = not native. */
  readonly pitch?: NumberRange;
  /** Native volume multiplier range (2.0 = double amplitude); absent = not native. */
  readonly volume?: NumberRange;
  /** Longest input, in Unicode code points, one provider call accepts. */
  readonly maxInputChars: number;
  /** Longest input in UTF-8 bytes, for providers that count bytes (Google). */
  readonly maxInputBytes?: number;
  /**
   * Longest input once escaped as XML character data, for providers whose limit counts the SSML
   * they are sent (Polly, Edge): each `&` counted as `&amp;`, `<` and `>` as `&lt;` `&gt;`, quotes
   * as `&quot;` `&apos;`. The gateway splits so that every chunk fits once escaped, and text
   * without those characters still gets chunks as long as `maxInputChars`.
   */
  readonly maxEscapedInput?: EscapedInputLimit;
  /** The sample rate of the model's native `pcm`, when it is fixed (OpenAI: 24,000). */
  readonly pcmSampleRate?: number;
  /** Whether the model takes free-text `instructions` (tone, accent), like gpt-4o-mini-tts. */
  readonly instructions?: boolean;
}

/**
 * What a catalog model name may be: safe in a URL path segment without escaping. The config
 * schema (config/schema.ts, which does not import core) writes the same pattern.
 */
export const MODEL_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._:~-]*$';

/** One model as a provider declares it. */
export interface ModelInfo {
  /** Unique in the catalog and safe in a URL path segment. */
  readonly name: string;
  readonly description?: string;
  readonly capabilities: ModelCapabilities;
}

export type VoiceGender = 'Male' | 'Female' | 'Unknown';

/** One voice, in the spec's VoiceDto shape. */
export interface VoiceInfo {
  readonly voiceId: string;
  readonly voiceName: string;
  /** BCP 47 language tag, for example `en-US`. */
  readonly language: string;
  readonly gender: VoiceGender;
  readonly description: string;
}

/**
 * One call to a provider. The planner has already decided what is native: speed, pitch and
 * volume are present only when the provider must apply them itself (each inside the model's
 * declared native range); an absent value means 1.0. `text` fits the model's input limit.
 */
export interface ProviderSynthesisRequest {
  readonly model: string;
  readonly voice: string;
  readonly text: string;
  /** One of the model's declared native formats. */
  readonly format: AudioFormat;
  readonly speed?: number;
  readonly pitch?: number;
  readonly volume?: number;
  /** Aborted when the client goes away or the gateway's deadline passes. */
  readonly signal: AbortSignal;
  /**
   * When the gateway's deadline passes (Unix milliseconds), if known: `signal` aborts then (for
   * a stream, unless its first audio came by then). The gateway's retry layer never starts a
   * retry that would end past it.
   */
  readonly deadline?: number;
  /**
   * True for a later call of a stream already under way: a provider that sheds load (refuses
   * work it cannot finish by the deadline) must not refuse it, or the stream would break midway.
   */
  readonly continuation?: boolean;
  /**
   * True when the gateway has another target to fall back on: the gateway's breaker refuses the
   * call at once while the provider's circuit is on trial, instead of making it wait for the trial
   * (not a `continuation`: its stream has begun on this provider).
   */
  readonly fallbackAvailable?: boolean;
  /** The gateway's request id, for the provider's logs. */
  readonly requestId: string;
  /** Free-text delivery instructions; only sent to models that declare `instructions`. */
  readonly instructions?: string;
}

/** Audio as a provider returns it. */
export interface ProviderAudio {
  readonly audio: Uint8Array;
  /** The format the bytes are really in (the gateway sniffs and checks it). */
  readonly format: AudioFormat;
  /** Required for `pcm` (16-bit signed little-endian mono); optional otherwise. */
  readonly sampleRate?: number;
  /** Settings the provider could not honour; reported, not fatal. */
  readonly warnings: readonly string[];
  /**
   * True when `audio`'s buffer is the provider's to give away (made for this answer, held by
   * nothing else): the gateway then moves it to its audio worker instead of copying it, and the
   * provider's view of it is emptied. Leave it unset for bytes that are kept or shared.
   */
  readonly transferable?: boolean;
}

/**
 * Audio as a provider streams it: the bytes of one answer in order, as they arrive. The
 * iteration ends when the answer is complete and throws a GatewayError when it breaks off;
 * aborting the request's signal stops it and releases the connection.
 */
export interface ProviderAudioStream {
  /** The format the bytes are in (the gateway sniffs the first bytes and checks it). */
  readonly format: AudioFormat;
  /** Required for `pcm` (16-bit signed little-endian mono); optional otherwise. */
  readonly sampleRate?: number;
  readonly warnings: readonly string[];
  readonly chunks: AsyncIterable<Uint8Array>;
}

/** A live provider instance, built by `TtsPlugin.create()`. */
export interface TtsProvider {
  /** Models this instance serves, with their capabilities. */
  models(signal?: AbortSignal): Promise<readonly ModelInfo[]>;
  /** Voices of one of this instance's models. */
  voices(model: string, signal?: AbortSignal): Promise<readonly VoiceInfo[]>;
  /** Synthesizes one chunk of text. Errors are core's coded errors (`GatewayError`). */
  synthesize(request: ProviderSynthesisRequest): Promise<ProviderAudio>;
  /**
   * Optional: synthesizes one chunk of text and hands the bytes on as the provider sends them.
   * The promise settles once the provider has accepted the call (errors before any audio are
   * thrown here). Without it, the gateway streams at sentence granularity through `synthesize`.
   */
  synthesizeStream?(request: ProviderSynthesisRequest): Promise<ProviderAudioStream>;
  /**
   * Warms caches or workers as the gateway starts: it listens meanwhile (a synthesis waits for its
   * engine) and reports ready once every warm-up is over; a throw stops the start.
   */
  warmUp?(): Promise<void>;
  /**
   * Releases workers, sockets and timers. It has 10 s: after that the gateway logs a warning
   * and goes on without it (a stuck close must not keep the process from exiting).
   */
  close?(): Promise<void>;
}

/** The minimal structured logger core and plugins log through (winston satisfies it). */
export interface Logger {
  debug(message: string, meta?: Record<string, unknown>): void;
  info(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
  error(message: string, meta?: Record<string, unknown>): void;
}

/** @deprecated The earlier name of `Logger`, kept so plugins written against it still compile. */
export type PluginLogger = Logger;

/** What the gateway gives a plugin when it creates a provider. */
export interface PluginContext {
  /** The instance id from the config (defaults to the plugin id). */
  readonly instanceId: string;
  readonly logger: Logger;
  /** Injectable fetch: tests and middleware stand in for the network here. */
  readonly fetch: typeof fetch;
  /** Aborted when the gateway shuts down. */
  readonly signal: AbortSignal;
}

/** What a plugin package exports (its default export). */
export interface TtsPlugin<Options = unknown> {
  readonly contract: typeof PLUGIN_CONTRACT_V1;
  /** `openai`, `espeak`, `@acme/tts-foo`. */
  readonly id: string;
  /** JSON Schema of the options; ajv validates (with defaults) before `create()`. */
  readonly optionsSchema: JsonSchema;
  /** Builds a provider; one not built within 30 s fails the start as a throw does. */
  create(options: Options, context: PluginContext): Promise<TtsProvider> | TtsProvider;
}
