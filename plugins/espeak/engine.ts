/**
 * The eSpeak NG engine compiled to WebAssembly, as one worker thread sees it. Only worker threads
 * load it: synthesis is synchronous WASM and must never run on the gateway's event loop.
 */
import { pathToFileURL } from 'node:url';
import { SampleCollector } from './sample-collector';
import type { EngineProsody, EngineVoice } from './worker-messages';

/** The part of the Emscripten binding's `espeak_VOICE` wrapper used here. */
interface NativeVoice {
  readonly ptr: number;
  get_name(): string;
  get_identifier(): string;
  get_gender(): number;
  /** Byte `index` of the packed language list: (priority byte, name, NUL)*, then NUL. */
  get_languages(index: number): number;
}

/** The part of the Emscripten binding's `eSpeakNGWorker` used here. */
interface NativeSynthesizer {
  get_voices(index: number): NativeVoice;
  get_samplerate(): number;
  set_voice(name: string): number;
  set_rate(value: number): number;
  set_pitch(value: number): number;
  set_range(value: number): number;
  set_volume(value: number): number;
  /**
   * Synthesizes, calling the C function at `callbackPointer` with each block of 16-bit samples
   * (its place in the heap and its length); a callback answering 1 stops the synthesis. (The
   * binding's own `synthesize` wraps this, handing over a fresh copy of each block.)
   */
  synth_(text: string, callbackPointer: number): void;
}

/** The engine's heap and its function table, as the Emscripten module exposes them. */
export interface EngineMemory {
  /** The engine's heap (this build is compiled to JavaScript: a plain ArrayBuffer that grows and never shrinks). */
  readonly HEAP8?: Int8Array;
  /** The same heap as 16-bit values; replaced when the heap grows, so read at each use. */
  readonly HEAP16: Int16Array;
  addFunction(callback: (audioPointer: number, sampleCount: number, eventsPointer: number) => number): number;
  removeFunction(pointer: number): void;
}

interface EspeakModule extends EngineMemory {
  eSpeakNGWorker: new () => NativeSynthesizer;
}

/** eSpeak's own amplitude; volume is applied as a gain afterwards (see request-body.ts). */
const DEFAULT_AMPLITUDE = 100;

type EspeakModuleFactory = (moduleArguments?: Record<string, unknown>) => Promise<EspeakModule>;

// The package is ESM-only; a real dynamic import() is needed, which tsc (CommonJS output)
// would otherwise rewrite to require().
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<{ default: EspeakModuleFactory }>;

/** Loads the engine; the package finds its voice data file beside itself in node_modules. */
export async function loadEspeakEngine(): Promise<EspeakEngine> {
  const entry = require.resolve('@echogarden/espeak-ng-emscripten');
  const module = await importEsm(pathToFileURL(entry).href);
  const instance = await module.default();
  return new EspeakEngine(new instance.eSpeakNGWorker(), instance);
}

/** Samples kept ready between syntheses: 400 characters of speech at 22,050 Hz fit (2 MB). */
const KEPT_SAMPLES = 1024 * 1024;

/** Synthesized audio: 16-bit mono samples at the engine's native rate. */
export interface EngineAudio {
  /** In a buffer of their own. */
  readonly samples: Int16Array<ArrayBuffer>;
  readonly sampleRate: number;
  readonly cancelled: boolean;
}

export class EspeakEngine {
  private readonly collector = new SampleCollector(KEPT_SAMPLES);

  /** Set when a synthesis broke off with an exception: the engine may still hold the rest of its text. */
  private broken = false;

  constructor(
    private readonly synthesizer: NativeSynthesizer,
    private readonly memory: EngineMemory,
  ) {}

  /**
   * False once a synthesis broke off with an exception (an allocation that failed, a bug in the
   * block callback): eSpeak NG keeps the rest of that text queued and would speak it at the start
   * of the next synthesis, another client's text in this one's audio. Such an engine is let go.
   */
  get usable(): boolean {
    return !this.broken;
  }

  /** Bytes of the engine's heap now. */
  heapBytes(): number {
    return this.memory.HEAP8?.buffer.byteLength ?? 0;
  }

  get sampleRate(): number {
    return this.synthesizer.get_samplerate();
  }

  listVoices(): EngineVoice[] {
    const voices: EngineVoice[] = [];
    for (let index = 0; ; index += 1) {
      const voice = this.synthesizer.get_voices(index);
      if (voice.ptr === 0) return voices;
      voices.push({
        identifier: voice.get_identifier(),
        name: voice.get_name().trim(),
        languages: readLanguages(voice),
        gender: voice.get_gender(),
      });
    }
  }

  /** `shouldStop` is polled between audio blocks so a cancelled request stops early. */
  synthesize(voiceIdentifier: string, text: string, prosody: EngineProsody, shouldStop: () => boolean): EngineAudio {
    if (this.synthesizer.set_voice(voiceIdentifier) !== 0) throw new Error(`eSpeak NG has no voice ${voiceIdentifier}`);
    this.synthesizer.set_rate(prosody.rate);
    this.synthesizer.set_pitch(prosody.pitch);
    this.synthesizer.set_range(prosody.range);
    this.synthesizer.set_volume(DEFAULT_AMPLITUDE);
    let cancelled = false;
    const callback = this.memory.addFunction((audioPointer, sampleCount) => {
      const start = audioPointer >> 1;
      this.collector.append(this.memory.HEAP16.subarray(start, start + sampleCount));
      cancelled = shouldStop();
      return cancelled ? 1 : 0;
    });
    let samples: Int16Array<ArrayBuffer>;
    try {
      this.synthesizer.synth_(escapeMarkup(text), callback);
    } catch (error) {
      this.broken = true;
      throw error;
    } finally {
      this.memory.removeFunction(callback);
      samples = this.collector.take();
    }
    if (prosody.gain !== 1) applyGain(samples, prosody.gain);
    return { samples, sampleRate: this.sampleRate, cancelled };
  }
}

/**
 * This build parses SSML: plain text such as `<break time="600s"/>` or `x <y> z` would be taken
 * as markup (silence for minutes, words dropped). Escaped, it is read as written. Control
 * characters other than tab and line breaks become spaces: U+0001 starts an eSpeak embedded
 * command (`\u0001100H` turns echo on in the engine, for every later request of its thread too),
 * a NUL ends the text there, a backspace drops what precedes it.
 */
const MARKUP_OR_CONTROL = /[&<>\u0000-\u0008\u000B\u000C\u000E-\u001F]/g;
const REPLACEMENTS: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

function escapeMarkup(text: string): string {
  return text.replace(MARKUP_OR_CONTROL, (character) => REPLACEMENTS[character] ?? ' ');
}

/** Scales in place, clamping to the 16-bit range. */
function applyGain(samples: Int16Array, gain: number): void {
  for (let index = 0; index < samples.length; index += 1) {
    samples[index] = Math.max(-32768, Math.min(32767, Math.round(samples[index] * gain)));
  }
}

function readLanguages(voice: NativeVoice): string[] {
  const languages: string[] = [];
  let index = 0;
  while (voice.get_languages(index) !== 0) {
    index += 1; // skip the priority byte
    let name = '';
    for (let byte = voice.get_languages(index); byte !== 0; byte = voice.get_languages(index)) {
      name += String.fromCharCode(byte);
      index += 1;
    }
    index += 1; // skip the NUL
    languages.push(name);
  }
  return languages;
}
