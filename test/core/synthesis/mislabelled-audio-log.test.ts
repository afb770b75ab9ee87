import { expect } from 'chai';
import { resolvedModel } from '../../support/resolved-model';
import { recordingWinstonLogger } from '../../support/recording-winston-logger';
import { createPcm, encodeAudio, SynthesisService, type AudioEngine, type AudioSink, type ModelDirectory, type TtsProvider } from '../../../core';

/** Every log line about a request carries its id (README, Logging): this one too. */
describe('core/synthesis SynthesisService: the log line of mislabelled provider audio', () => {
  it("names the request's id, the provider, the label and what the bytes are", async () => {
    const wav = (await encodeAudio(createPcm(new Float32Array(240).fill(0.1), 24000), 'wav')).audio;
    // A WAV sent as raw pcm: the check strips its header, and says so.
    const provider: TtsProvider = { models: async () => [], voices: async () => [], synthesize: async () => ({ audio: wav, format: 'pcm', sampleRate: 24000, warnings: [] }) };
    const directory: ModelDirectory = {
      resolve: () => resolvedModel('acme', provider, 'acme-1', { formats: ['pcm'], speed: { min: 0.5, max: 2 }, maxInputChars: 100 }),
      ensureVoice: async () => undefined,
    };
    const engine: AudioEngine = {
      decodableFormats: ['pcm', 'wav'],
      encodableFormats: ['pcm', 'wav'],
      process: async (job) => ({ audio: new Uint8Array(4), format: job.output, sampleRate: 24000 }),
      openStream: async () => Promise.reject(new Error('not streamed')),
    };
    const sink: AudioSink = { save: async (audio, format) => ({ fileName: `file.${format}`, size: audio.byteLength }) };
    const lines: Record<string, unknown>[] = [];
    const service = new SynthesisService(directory, engine, sink, recordingWinstonLogger(lines), { chunkConcurrency: 1, timeoutMs: 5000 });
    await service.synthesize({ model: 'acme-model', voice: 'v1', text: 'Hello there.', speed: 1, pitch: 1, volume: 1, format: 'pcm' }, { requestId: 'request-7' });
    const line = lines.find((entry) => entry.message === 'provider audio is not what its label says');
    expect(line).to.deep.include({ requestId: 'request-7', provider: 'acme', labelled: 'pcm', actual: 'pcm' });
  });
});
