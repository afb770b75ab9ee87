import { gatewayError } from '../errors';
import type { AudioInput, AudioJob, AudioResult } from './audio-job';
import type { CodecOptions } from './codec-options';
import { checkDeclaredFormat } from './decode/check-declared-format';
import { decodeAudio } from './decode/decode-audio';
import { applyGain } from './dsp/gain';
import { joinPcm } from './dsp/join';
import { changeTempoAndPitch } from './dsp/sonic';
import { encodeAudio, isEncodableFormat, unsupportedOutput } from './encode/encode-audio';
import { pcmDurationSeconds, type PcmAudio } from './pcm';

/** Multipliers the engine accepts; the public API allows 0.5..2, the margin serves internal callers. */
const MIN_FACTOR = 0.1;
const MAX_FACTOR = 10;

export function checkFactor(name: 'speed' | 'pitch' | 'volume', value: number): void {
  if (!Number.isFinite(value) || value < MIN_FACTOR || value > MAX_FACTOR) {
    throw gatewayError('TTS_ERR_VALIDATION', { problem: `${name} must be between ${MIN_FACTOR} and ${MAX_FACTOR}` }, {
      details: [{ field: name, reason: `got ${value}` }],
    });
  }
}

/** Decodes one input after checking that its bytes really are the format the provider declared. */
async function decodeInput(input: AudioInput, options: CodecOptions | undefined): Promise<PcmAudio> {
  checkDeclaredFormat(input.audio, input.format);
  return decodeAudio(input.audio, input.format, input.sampleRate, options);
}

function isNeutral(job: AudioJob): boolean {
  return job.speed === 1 && job.pitch === 1 && job.volume === 1;
}

/**
 * Runs one job in the calling thread (AudioProcessor runs it in a worker): decode every input,
 * join them, apply tempo/pitch/gain (each skipped at 1.0), encode once. A single input already
 * in the requested format with nothing to change is returned as is, avoiding a lossy re-encode.
 */
export async function runAudioJob(job: AudioJob, options?: CodecOptions, cancelled: () => boolean = () => false): Promise<AudioResult> {
  // Checked between the steps: a caller that gave up (deadline, client gone) frees the worker early.
  const checkpoint = (): void => {
    if (cancelled()) throw gatewayError('TTS_ERR_CANCELLED', { subject: 'The audio job' });
  };
  if (!isEncodableFormat(job.output, options)) throw unsupportedOutput(job.output, options);
  if (job.inputs.length === 0) throw gatewayError('TTS_ERR_INTERNAL', { problem: 'audio job has no inputs' });
  checkFactor('speed', job.speed);
  checkFactor('pitch', job.pitch);
  checkFactor('volume', job.volume);
  const decoded: PcmAudio[] = [];
  for (const input of job.inputs) {
    checkpoint();
    decoded.push(await decodeInput(input, options));
  }
  const only = job.inputs.length === 1 ? job.inputs[0] : undefined;
  if (only && only.format === job.output && isNeutral(job)) {
    return { audio: only.audio, format: job.output, sampleRate: decoded[0].sampleRate, durationSeconds: pcmDurationSeconds(decoded[0]) };
  }
  checkpoint();
  let audio = await joinPcm(decoded);
  // The inputs are joined: let go of them before the next copy is made.
  decoded.length = 0;
  checkpoint();
  if (job.speed !== 1 || job.pitch !== 1) audio = await changeTempoAndPitch(audio, job.speed, job.pitch);
  if (job.volume !== 1) audio = applyGain(audio, job.volume);
  checkpoint();
  const encoded = await encodeAudio(audio, job.output, options, checkpoint);
  return { audio: encoded.audio, format: job.output, sampleRate: encoded.sampleRate, durationSeconds: pcmDurationSeconds(audio) };
}
