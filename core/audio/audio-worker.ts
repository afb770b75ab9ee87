/** Worker-thread entry of AudioProcessor: all decoding, DSP and encoding run here. */
import { workerData } from 'node:worker_threads';
import { serveWorkerTasks, type TaskControl, type WorkerReply } from '../workers';
import type { AudioJob } from './audio-job';
import { runAudioJob } from './audio-pipeline';
import type { AudioTask, AudioTaskOutcome, AudioWorkerData } from './audio-worker-protocol';
import type { CodecOptions } from './codec-options';
import { encodableFormats } from './encode/encode-audio';
import { encodeWav } from './encode/wav-encoder';
import { adoptFfmpegProbe } from './ffmpeg/ffmpeg-probe';
import { StreamSessions } from './stream/stream-sessions';

const settings = workerData as AudioWorkerData;
// A probe of its own would hold this worker's first job (60 ms, half a second under load); the starting thread's answer stands.
if (settings.ffmpegProbe) adoptFfmpegProbe(settings.ffmpegProbe);
const codecs: CodecOptions = { ffmpegPath: settings.ffmpegPath };
const streams = new StreamSessions(settings.maxStreams, codecs);

/** Runs a short tone through every in-process codec and DSP step, so WebAssembly modules are compiled before traffic. */
async function warmUp(): Promise<void> {
  const sampleRate = 22050;
  const samples = Float32Array.from({ length: sampleRate / 5 }, (_value, index) => 0.3 * Math.sin((2 * Math.PI * 220 * index) / sampleRate));
  const input = { audio: encodeWav({ samples, sampleRate }), format: 'wav' as const };
  // aac runs in an ffmpeg process: nothing of it to compile here.
  for (const output of encodableFormats(codecs).filter((format) => format !== 'aac')) {
    const job: AudioJob = { inputs: [input, input], speed: 1.1, pitch: 1.1, volume: 1.1, output };
    const result = await runAudioJob(job, codecs);
    if (output !== 'pcm') await runAudioJob({ inputs: [{ audio: result.audio, format: output }], speed: 1, pitch: 1, volume: 1, output: 'wav' }, codecs);
  }
}

/** Moves the bytes back instead of copying them; a view into a larger buffer is copied first. */
function withAudioMoved<Result extends { readonly audio: Uint8Array }>(result: Result): WorkerReply<Result> {
  const owned = result.audio.byteOffset === 0 && result.audio.byteLength === result.audio.buffer.byteLength && result.audio.buffer instanceof ArrayBuffer;
  const audio = owned ? result.audio : result.audio.slice();
  return { result: { ...result, audio }, transfer: [audio.buffer as ArrayBuffer] };
}

async function handle(task: AudioTask, control: TaskControl): Promise<WorkerReply<AudioTaskOutcome>> {
  switch (task.kind) {
    case 'warm-up':
      await warmUp();
      return { result: undefined };
    case 'process':
      return withAudioMoved(await runAudioJob(task.job, codecs, () => control.cancelled()));
    case 'stream-open':
      streams.open(task.stream, task.spec);
      return { result: undefined };
    case 'stream-push':
      return withAudioMoved(await streams.push(task.stream, task.input, task.continuation));
    case 'stream-end':
      return withAudioMoved(await streams.end(task.stream));
    case 'stream-close':
      streams.close(task.stream);
      return { result: undefined };
  }
}

serveWorkerTasks(handle);
