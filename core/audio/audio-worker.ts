/** Worker-thread entry of AudioProcessor: all decoding, DSP and encoding run here. */
import { serveWorkerTasks, type WorkerReply } from '../workers';
import type { AudioJob } from './audio-job';
import { runAudioJob } from './audio-pipeline';
import type { AudioTask, AudioTaskOutcome } from './audio-worker-protocol';
import { ENCODABLE_FORMATS } from './encode/encode-audio';
import { encodeWav } from './encode/wav-encoder';

/** Runs a short tone through every codec and DSP step, so WebAssembly modules are compiled before traffic. */
async function warmUp(): Promise<void> {
  const sampleRate = 22050;
  const samples = Float32Array.from({ length: sampleRate / 5 }, (_value, index) => 0.3 * Math.sin((2 * Math.PI * 220 * index) / sampleRate));
  const input = { audio: encodeWav({ samples, sampleRate }), format: 'wav' as const };
  for (const output of ENCODABLE_FORMATS) {
    const job: AudioJob = { inputs: [input, input], speed: 1.1, pitch: 1.1, volume: 1.1, output };
    const result = await runAudioJob(job);
    if (output !== 'pcm') await runAudioJob({ inputs: [{ audio: result.audio, format: output }], speed: 1, pitch: 1, volume: 1, output: 'wav' });
  }
}

async function handle(task: AudioTask): Promise<WorkerReply<AudioTaskOutcome>> {
  if (task.kind === 'warm-up') {
    await warmUp();
    return { result: undefined };
  }
  const result = await runAudioJob(task.job);
  // Move the encoded bytes back instead of copying them; the buffer is ours alone unless passed through.
  const owned = result.audio.byteOffset === 0 && result.audio.byteLength === result.audio.buffer.byteLength;
  const audio = owned ? result.audio : result.audio.slice();
  return { result: { ...result, audio }, transfer: [audio.buffer as ArrayBuffer] };
}

serveWorkerTasks(handle);
