/**
 * Worker script of the espeak pool: each thread loads its own eSpeak NG engine once and
 * answers synthesis and voice-list tasks.
 */
// The light entry point for worker scripts: loading all of core in every thread costs ~25 MB.
import { serveWorkerTasks, wasmMemoryBytes, type WorkerReply } from '../../core/workers';
import { encodeSamples } from './audio-encoding';
import { loadEspeakEngine, type EspeakEngine } from './engine';
import type { EspeakResult, EspeakTask, SynthesizeTask } from './worker-messages';

let engine: Promise<EspeakEngine> | undefined;
/** Set once the engine has loaded, for the memory report. */
let loadedEngine: EspeakEngine | undefined;

function getEngine(): Promise<EspeakEngine> {
  engine ??= loadEspeakEngine().then((loaded) => (loadedEngine = loaded));
  return engine;
}

async function synthesize(task: SynthesizeTask): Promise<WorkerReply<EspeakResult>> {
  const loaded = await getEngine();
  const cancelFlag = new Int32Array(task.cancelFlag);
  const isCancelled = (): boolean => Atomics.load(cancelFlag, 0) !== 0;
  const speech = loaded.synthesize(task.voiceIdentifier, task.text, task.prosody, isCancelled);
  if (speech.cancelled || isCancelled()) {
    return { result: { kind: 'audio', audio: new Uint8Array(0), sampleRate: speech.sampleRate, cancelled: true } };
  }
  const audio = await encodeSamples(speech.samples, speech.sampleRate, task.format);
  return { result: { kind: 'audio', audio, sampleRate: speech.sampleRate, cancelled: false }, transfer: [audio.buffer] };
}

async function handle(task: EspeakTask): Promise<WorkerReply<EspeakResult>> {
  switch (task.kind) {
    case 'synthesize':
      return synthesize(task);
    case 'list-voices':
      return { result: { kind: 'voices', voices: (await getEngine()).listVoices() } };
  }
}

// The engine's heap grows with the longest text it read and never shrinks: the pool replaces a
// worker whose heap grew too far (with the MP3 encoder's WebAssembly memory).
serveWorkerTasks<EspeakTask, EspeakResult>(handle, { retainedBytes: () => wasmMemoryBytes() + (loadedEngine?.heapBytes() ?? 0) });
