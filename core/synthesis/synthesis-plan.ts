import type { AudioFormat } from '../audio/audio-format';
import { GatewayError, gatewayError } from '../errors';
import type { ModelCapabilities, NumberRange } from '../plugin/contract';
import type { SynthesisRequest } from './synthesis-request';
import { chunkLimitsOf, splitText, type ChunkLimits } from './text-splitter';

export type Adjustment = 'speed' | 'pitch' | 'volume';

/** Who applies an adjustment: nobody (1.0), the provider, or the gateway's DSP. */
export type AppliedBy = 'default' | 'native' | 'dsp';

/** What the provider does and what the gateway does for one request. */
export interface SynthesisPlan {
  /** Text chunks, each within the model's input limit. */
  readonly chunks: readonly string[];
  /** The format asked of the provider. */
  readonly providerFormat: AudioFormat;
  /** Multipliers passed to the provider (only those it applies natively). */
  readonly native: Partial<Record<Adjustment, number>>;
  /** Multipliers the gateway applies on PCM (1.0 = nothing to do). */
  readonly dsp: Record<Adjustment, number>;
  readonly appliedBy: Record<Adjustment, AppliedBy>;
  /** `native`: the provider's bytes are the answer; `transcoded`: the gateway encoded the output. */
  readonly formatBy: 'native' | 'transcoded';
  /** False when the provider's bytes are the answer as they are. */
  readonly needsAudioProcessing: boolean;
}

const ADJUSTMENTS: readonly Adjustment[] = ['speed', 'pitch', 'volume'];
/** Lossless formats to ask for when the gateway must work on the audio, best first. */
const PROCESSING_FORMATS: readonly AudioFormat[] = ['pcm', 'wav', 'flac'];

function within(value: number, range: NumberRange | undefined): boolean {
  return range !== undefined && value >= range.min && value <= range.max;
}

export interface PlanOptions {
  /** How the text is cut into provider calls; whole files pack chunks to the model's limit. */
  readonly split?: (text: string, limits: ChunkLimits) => string[];
}

/** Decides, from the model's declared capabilities, who does what. */
export function planSynthesis(
  request: SynthesisRequest,
  capabilities: ModelCapabilities,
  codecs: { readonly decodable: readonly AudioFormat[]; readonly encodable: readonly AudioFormat[] },
  options: PlanOptions = {},
): SynthesisPlan {
  const native: Partial<Record<Adjustment, number>> = {};
  const dsp: Record<Adjustment, number> = { speed: 1, pitch: 1, volume: 1 };
  const appliedBy: Record<Adjustment, AppliedBy> = { speed: 'default', pitch: 'default', volume: 'default' };
  for (const adjustment of ADJUSTMENTS) {
    const value = request[adjustment];
    if (value === 1) appliedBy[adjustment] = 'default';
    else if (within(value, capabilities[adjustment])) {
      native[adjustment] = value;
      appliedBy[adjustment] = 'native';
    } else {
      dsp[adjustment] = value;
      appliedBy[adjustment] = 'dsp';
    }
  }
  const split = options.split ?? splitText;
  const chunks = split(request.text, chunkLimitsOf(capabilities));
  const nativeFormat = capabilities.formats.includes(request.format) && !needsResampling(request, capabilities);
  const needsAudioProcessing = chunks.length > 1 || !nativeFormat || ADJUSTMENTS.some((adjustment) => dsp[adjustment] !== 1);
  if (!needsAudioProcessing) {
    return { chunks, providerFormat: request.format, native, dsp, appliedBy, formatBy: 'native', needsAudioProcessing };
  }
  if (!codecs.encodable.includes(request.format)) {
    if (request.format === 'aac') throw aacNeedsFfmpeg();
    throw gatewayError('TTS_ERR_UNSUPPORTED_FORMAT', { subject: `Model ${request.model} with the gateway`, format: request.format }, {
      details: [{ field: 'format', reason: 'unsupported', supported: [...new Set([...capabilities.formats, ...codecs.encodable])] }],
    });
  }
  const decodableNative = capabilities.formats.filter((format) => codecs.decodable.includes(format));
  const providerFormat = PROCESSING_FORMATS.find((format) => decodableNative.includes(format)) ?? (decodableNative.includes(request.format) ? request.format : decodableNative[0]);
  if (providerFormat === undefined) {
    throw gatewayError('TTS_ERR_UNSUPPORTED_FORMAT', { subject: `Model ${request.model} with the gateway`, format: request.format, reason: 'it returns no format the gateway can decode' }, {
      details: [{ field: 'format', reason: 'undecodable_provider_formats', providerFormats: [...capabilities.formats] }],
    });
  }
  return { chunks, providerFormat, native, dsp, appliedBy, formatBy: 'transcoded', needsAudioProcessing };
}

/** Raw pcm carries no rate, so a client that needs a fixed one gets it resampled. */
function needsResampling(request: SynthesisRequest, capabilities: ModelCapabilities): boolean {
  return request.format === 'pcm' && request.sampleRate !== undefined && capabilities.pcmSampleRate !== request.sampleRate;
}

/** The gateway encodes AAC with an ffmpeg binary; without one, say how to get it. */
function aacNeedsFfmpeg(): GatewayError {
  return new GatewayError('TTS_ERR_VALIDATION', 'aac output needs ffmpeg on the gateway: install it (Debian: apt-get install ffmpeg) or set audio.ffmpegPath', {
    details: [{ field: 'format', reason: 'ffmpeg_missing' }],
  });
}

/** Who applied each setting and the format, and in how many provider calls (`X-TTS-Applied`). */
export interface AppliedPlan extends Readonly<Record<Adjustment, AppliedBy>> {
  readonly format: 'native' | 'transcoded';
  readonly chunks: number;
  /** The container the provider really sent when it was not the one asked for (decoded as what it is). */
  readonly received?: AudioFormat;
}

/** What a plan means for the client: who applied what. */
export function appliedOf(plan: SynthesisPlan): AppliedPlan {
  // Named one by one: a spread of the record costs more than the rest of the plan (measured).
  const { speed, pitch, volume } = plan.appliedBy;
  return { speed, pitch, volume, format: plan.formatBy, chunks: plan.chunks.length };
}

/**
 * Whether audio can go to the client as it came: already the output format, and at the rate the
 * client needs if it needs one (OpenAI's pcm is 24 kHz; pcm at another rate is resampled).
 */
export function passesAsItCame(audio: { readonly format: AudioFormat; readonly sampleRate?: number }, output: AudioFormat, outputRate: number | undefined): boolean {
  return audio.format === output && (outputRate === undefined || audio.sampleRate === outputRate);
}

/**
 * The plan as it turned out once the provider's audio was checked: a mislabelled answer names
 * what it really was, and is transcoded unless its checked bytes are already the output format
 * (a WAV header stripped from pcm).
 */
export function appliedAfterCheck(
  applied: AppliedPlan,
  output: AudioFormat,
  checked: { readonly format: AudioFormat; readonly receivedAs?: AudioFormat; readonly sampleRate?: number } | undefined,
  outputRate?: number,
): AppliedPlan {
  if (checked?.receivedAs === undefined) return applied;
  return { ...applied, format: passesAsItCame(checked, output, outputRate) ? applied.format : 'transcoded', received: checked.receivedAs };
}
