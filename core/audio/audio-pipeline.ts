import { GatewayError } from '../errors';
import type { AudioInput, AudioJob, AudioResult } from './audio-job';
import { decodeAudio } from './decode/decode-audio';
import { undecodable } from './decode/decode-error';
import { applyGain } from './dsp/gain';
import { joinPcm } from './dsp/join';
import { changeTempoAndPitch } from './dsp/sonic';
import { encodeAudio, isEncodableFormat, unsupportedOutput } from './encode/encode-audio';
import { pcmDurationSeconds, type PcmAudio } from './pcm';
import { sniffAudioFormat } from './sniff-audio-format';

/** Multipliers the engine accepts; the public API allows 0.5..2, the margin serves internal callers. */
const MIN_FACTOR = 0.1;
const MAX_FACTOR = 10;

function checkFactor(name: 'speed' | 'pitch' | 'volume', value: number): void {
  if (!Number.isFinite(value) || value < MIN_FACTOR || value > MAX_FACTOR) {
    throw new GatewayError('TTS_ERR_VALIDATION', `${name} must be between ${MIN_FACTOR} and ${MAX_FACTOR}`, {
      details: [{ field: name, reason: `got ${value}` }],
    });
  }
}

/** Decodes one input after checking that its bytes really are the format the provider declared. */
async function decodeInput(input: AudioInput): Promise<PcmAudio> {
  const sniffed = sniffAudioFormat(input.audio);
  // Raw pcm has no signature, so it can only be checked by decoding.
  if (input.format !== 'pcm' && sniffed !== input.format) {
    throw undecodable(input.format, sniffed ? `bytes are ${sniffed}, not ${input.format}` : 'bytes match no known audio format');
  }
  return decodeAudio(input.audio, input.format, input.sampleRate);
}

function isNeutral(job: AudioJob): boolean {
  return job.speed === 1 && job.pitch === 1 && job.volume === 1;
}

/**
 * Runs one job in the calling thread (AudioProcessor runs it in a worker): decode every input,
 * join them, apply tempo/pitch/gain (each skipped at 1.0), encode once. A single input already
 * in the requested format with nothing to change is returned as is, avoiding a lossy re-encode.
 */
export async function runAudioJob(job: AudioJob): Promise<AudioResult> {
  if (!isEncodableFormat(job.output)) throw unsupportedOutput(job.output);
  if (job.inputs.length === 0) throw new GatewayError('TTS_ERR_INTERNAL', 'audio job has no inputs');
  checkFactor('speed', job.speed);
  checkFactor('pitch', job.pitch);
  checkFactor('volume', job.volume);
  const decoded = await Promise.all(job.inputs.map(decodeInput));
  const only = job.inputs.length === 1 ? job.inputs[0] : undefined;
  if (only && only.format === job.output && isNeutral(job)) {
    return { audio: only.audio, format: job.output, sampleRate: decoded[0].sampleRate, durationSeconds: pcmDurationSeconds(decoded[0]) };
  }
  let audio = await joinPcm(decoded);
  if (job.speed !== 1 || job.pitch !== 1) audio = await changeTempoAndPitch(audio, job.speed, job.pitch);
  if (job.volume !== 1) audio = applyGain(audio, job.volume);
  const encoded = await encodeAudio(audio, job.output);
  return { audio: encoded.audio, format: job.output, sampleRate: encoded.sampleRate, durationSeconds: pcmDurationSeconds(audio) };
}
