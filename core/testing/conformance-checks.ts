import Ajv from 'ajv';
import { AUDIO_FORMATS } from '../audio/audio-format';
import { sniffAudioFormat } from '../audio';
import { isGatewayError, type GatewayError } from '../errors';
import { MODEL_NAME_PATTERN, type ModelInfo, type NumberRange, type PluginContext, type TtsPlugin, type TtsProvider, type VoiceInfo } from '../plugin/contract';
import { checkPluginShape } from '../plugin/check-plugin-shape';
import { MULTIPLIER_RANGE } from '../synthesis/synthesis-request';

/** A check failure with a message that names the plugin's broken promise. */
export class ConformanceFailure extends Error {}

export function ensure(condition: unknown, message: string): asserts condition {
  if (!condition) throw new ConformanceFailure(message);
}

const BCP47 = /^[a-zA-Z]{2,3}(-[a-zA-Z]{3}){0,3}(-[a-zA-Z]{4})?(-([a-zA-Z]{2}|[0-9]{3}))?(-([a-zA-Z0-9]{5,8}|[0-9][a-zA-Z0-9]{3}))*(-x(-[a-zA-Z0-9]{1,8})+)?$/;
const MODEL_NAME = new RegExp(MODEL_NAME_PATTERN);
const VOICE_FIELDS = ['description', 'gender', 'language', 'voiceId', 'voiceName'];

/** The loader's own shape check, then the test options against the plugin's schema. */
export function checkPluginAndOptions<Options>(plugin: TtsPlugin<Options>, options: Options): void {
  checkPluginShape(plugin, `"${String(plugin.id)}"`, 'the conformance run');
  const validate = new Ajv({ strict: false, useDefaults: true, allErrors: true }).compile(plugin.optionsSchema);
  ensure(validate(structuredClone(options)), `the test options fail the plugin's own schema: ${JSON.stringify(validate.errors)}`);
}

export function checkModel(model: ModelInfo): void {
  ensure(MODEL_NAME.test(model.name), `model name '${model.name}' must be URL-path safe`);
  const { capabilities } = model;
  ensure(capabilities.formats.length > 0, `${model.name}: declares no format`);
  for (const format of capabilities.formats) ensure(AUDIO_FORMATS.includes(format), `${model.name}: unknown format ${format}`);
  ensure(Number.isInteger(capabilities.maxInputChars) && capabilities.maxInputChars > 0, `${model.name}: maxInputChars must be a positive integer`);
  const escaped = capabilities.maxEscapedInput;
  if (escaped) {
    // One quote escaped is 6 long: a smaller limit could not take every single character.
    ensure(Number.isInteger(escaped.max) && escaped.max >= 6, `${model.name}: maxEscapedInput.max must be an integer of at least 6`);
    ensure(escaped.unit === 'characters' || escaped.unit === 'bytes', `${model.name}: maxEscapedInput.unit must be 'characters' or 'bytes'`);
  }
  for (const [name, range] of nativeRanges(model)) {
    ensure(range.min > 0 && range.min <= 1 && range.max >= 1, `${model.name}: native ${name} range must contain 1.0`);
  }
}

export function checkVoices(model: string, voices: readonly VoiceInfo[]): void {
  ensure(voices.length > 0, `${model}: lists no voice`);
  const seen = new Set<string>();
  for (const voice of voices) {
    ensure(Object.keys(voice).sort().join() === VOICE_FIELDS.join(), `${model}: voice ${voice.voiceId} must have exactly the VoiceDto fields`);
    for (const field of VOICE_FIELDS) ensure(typeof voice[field as keyof VoiceInfo] === 'string', `${model}: ${voice.voiceId}.${field} must be a string`);
    ensure(voice.voiceId.length > 0, `${model}: empty voiceId`);
    ensure(['Male', 'Female', 'Unknown'].includes(voice.gender), `${model}: ${voice.voiceId} gender '${voice.gender}'`);
    ensure(BCP47.test(voice.language), `${model}: ${voice.voiceId} language '${voice.language}' is not a BCP 47 tag`);
    ensure(!seen.has(voice.voiceId), `${model}: voice ${voice.voiceId} listed twice`);
    seen.add(voice.voiceId);
  }
}

/** The native ranges a model declares, clipped to the gateway's own range (MULTIPLIER_RANGE). */
export function nativeRanges(model: ModelInfo): [string, NumberRange][] {
  const ranges: [string, NumberRange | undefined][] = [
    ['speed', model.capabilities.speed],
    ['pitch', model.capabilities.pitch],
    ['volume', model.capabilities.volume],
  ];
  return ranges
    .filter((entry): entry is [string, NumberRange] => entry[1] !== undefined)
    .map(([name, range]) => [name, { min: Math.max(MULTIPLIER_RANGE.min, range.min), max: Math.min(MULTIPLIER_RANGE.max, range.max) }]);
}

export function checkAudio(model: string, format: string, audio: { audio: Uint8Array; format: string; sampleRate?: number }): void {
  ensure(audio.format === format, `${model}: asked for ${format}, got ${audio.format}`);
  ensure(audio.audio.byteLength > 0, `${model}: ${format} audio is empty`);
  if (format === 'pcm') {
    ensure(Number.isInteger(audio.sampleRate) && (audio.sampleRate ?? 0) > 0, `${model}: pcm needs its sampleRate`);
    ensure(audio.audio.byteLength % 2 === 0, `${model}: 16-bit pcm must have an even byte count`);
    return;
  }
  const sniffed = sniffAudioFormat(audio.audio);
  ensure(sniffed === format, `${model}: declared ${format} but the bytes are ${sniffed ?? 'not recognisable audio'}`);
}

export async function expectGatewayError(promise: Promise<unknown>, code: string, what: string): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    ensure(isGatewayError(error), `${what}: must raise core's GatewayError, raised ${String(error)}`);
    ensure(error.code === code, `${what}: expected ${code}, got ${error.code} (${error.message})`);
    return error;
  }
  throw new ConformanceFailure(`${what}: expected ${code}, but the call succeeded`);
}

export function makeContext(fetchImplementation: typeof fetch | undefined, instanceId: string): PluginContext {
  const quiet = () => undefined;
  return {
    instanceId,
    logger: { debug: quiet, info: quiet, warn: quiet, error: quiet },
    fetch: fetchImplementation ?? (() => Promise.reject(new Error('this plugin was given no fetch'))),
    signal: new AbortController().signal,
  };
}

export async function createProvider<Options>(plugin: TtsPlugin<Options>, options: Options, fetchImplementation?: typeof fetch): Promise<TtsProvider> {
  const provider = await plugin.create(structuredClone(options), makeContext(fetchImplementation, plugin.id));
  for (const method of ['models', 'voices', 'synthesize'] as const) ensure(typeof provider[method] === 'function', `provider.${method} must be a function`);
  return provider;
}
