/**
 * Audio engine throughput, as "x real time" (seconds of audio handled per second of CPU), each
 * also as a ratio to a baseline measured in the same run (16-bit WAV encoding, little more than a
 * copy), so figures compare across machines. Not a test: it asserts nothing.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { AudioProcessor } from '../core/audio/audio-processor';
import { decodeAudio } from '../core/audio/decode/decode-audio';
import { decodeWav } from '../core/audio/decode/wav-decoder';
import { applyGain } from '../core/audio/dsp/gain';
import { joinPcm } from '../core/audio/dsp/join';
import { resample } from '../core/audio/dsp/resample';
import { changeTempoAndPitch } from '../core/audio/dsp/sonic';
import { encodableFormats, encodeAudio } from '../core/audio/encode/encode-audio';
import type { AudioFormat } from '../core/audio/audio-format';
import type { PcmAudio } from '../core/audio/pcm';

const MEASURE_SECONDS = 0.4;
const AUDIO_SECONDS = 20;

/** About 20 s of real speech: the test fixture repeated. */
function loadSpeech(): PcmAudio {
  const fixture = resolve(__dirname, '..', '..', 'test', 'fixtures', 'audio', 'speech-22050.wav');
  const once = decodeWav(new Uint8Array(readFileSync(fixture)));
  const copies = Math.ceil((AUDIO_SECONDS * once.sampleRate) / once.samples.length);
  const samples = new Float32Array(once.samples.length * copies);
  for (let copy = 0; copy < copies; copy += 1) samples.set(once.samples, copy * once.samples.length);
  return { samples, sampleRate: once.sampleRate };
}

/** Runs `work` (once to warm up, then repeatedly for a short while); returns audio seconds per wall second. */
async function realTimeFactor(audioSeconds: number, work: () => Promise<unknown> | unknown): Promise<number> {
  await work();
  let runs = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < MEASURE_SECONDS * 1000 || runs < 2) {
    await work();
    runs += 1;
    elapsed = performance.now() - start;
  }
  return (audioSeconds * runs) / (elapsed / 1000);
}

function report(label: string, factor: number, baseline: number): void {
  console.log(`${label.padEnd(34)} ${factor.toFixed(1).padStart(9)}x real time   ${(factor / baseline).toFixed(4).padStart(8)} of baseline`);
}

export async function runAudioEngineBench(): Promise<void> {
  const speech = loadSpeech();
  const seconds = speech.samples.length / speech.sampleRate;
  console.log(`audio engine bench: ${seconds.toFixed(1)} s of 22.05 kHz mono speech, single thread unless noted`);
  const baseline = await realTimeFactor(seconds, () => encodeAudio(speech, 'wav'));
  report('baseline: encode wav (16-bit)', baseline, baseline);

  const encoded = new Map<AudioFormat, Uint8Array>();
  for (const format of encodableFormats().filter((candidate) => candidate !== 'wav')) {
    const factor = await realTimeFactor(seconds, async () => encoded.set(format, (await encodeAudio(speech, format)).audio));
    report(`encode ${format}`, factor, baseline);
  }
  encoded.set('wav', (await encodeAudio(speech, 'wav')).audio);
  for (const [format, bytes] of encoded) {
    report(`decode ${format}`, await realTimeFactor(seconds, () => decodeAudio(bytes, format, speech.sampleRate)), baseline);
  }

  report('dsp: speed 1.5 (sonic)', await realTimeFactor(seconds, () => changeTempoAndPitch(speech, 1.5, 1)), baseline);
  report('dsp: pitch 1.5 (sonic)', await realTimeFactor(seconds, () => changeTempoAndPitch(speech, 1, 1.5)), baseline);
  report('dsp: volume 2 (soft limiter)', await realTimeFactor(seconds, () => applyGain(speech, 2)), baseline);
  report('dsp: resample 22050 -> 48000', await realTimeFactor(seconds, () => resample(speech, 48000)), baseline);
  const half = { samples: speech.samples.subarray(0, speech.samples.length / 2), sampleRate: speech.sampleRate };
  report('dsp: join 2 chunks (crossfade)', await realTimeFactor(seconds, () => joinPcm([half, half])), baseline);

  const processor = new AudioProcessor({ workers: 1 });
  try {
    await processor.warmUp();
    const wav = encoded.get('wav') ?? new Uint8Array(0);
    const job = { inputs: [{ audio: wav, format: 'wav' as const }], speed: 1.25, pitch: 1.1, volume: 1.5, output: 'mp3' as const };
    report('pipeline wav->mp3 + dsp (1 worker)', await realTimeFactor(seconds, () => processor.process(job)), baseline);
  } finally {
    await processor.close();
  }
}
