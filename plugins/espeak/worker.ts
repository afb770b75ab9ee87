/**
 * Worker script of the espeak pool: each thread loads its own eSpeak NG engine once and
 * answers synthesis and voice-list tasks.
 */
// The light entry point for worker scripts: loading all of core in every thread costs ~25 MB.
import { serveWorkerTasks, wasmMemoryBytes, type WorkerReply } from '../../core/workers';
import { encodeSamples } from './audio-encoding';
import { loadEspeakEngine, type EngineAudio, type EspeakEngine } from './engine';
import { EngineHolder } from './engine-holder';
import type { EspeakResult, EspeakTask, SynthesizeTask } from './worker-messages';

const engines = new EngineHolder<EspeakEngine>(loadEspeakEngine);

async function synthesize(task: SynthesizeTask): Promise<WorkerReply<EspeakResult>> {
  const loaded = await engines.get();
  const cancelFlag = new Int32Array(task.cancelFlag);
  const isCancelled = (): boolean => Atomics.load(cancelFlag, 0) !== 0;
  let speech: EngineAudio;
  try {
    speech = loaded.synthesize(task.voiceIdentifier, task.text, task.prosody, isCancelled);
  } finally {
    engines.releaseIfUnusable(loaded);
  }
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
      return { result: { kind: 'voices', voices: (await engines.get()).listVoices() } };
  }
}

// The engine's heap grows with the longest text it read and never shrinks: the pool replaces a
// worker whose heap grew too far (with the MP3 encoder's WebAssembly memory).
serveWorkerTasks<EspeakTask, EspeakResult>(handle, { retainedBytes: () => wasmMemoryBytes() + (engines.current?.heapBytes() ?? 0) });
