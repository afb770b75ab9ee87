import { expect } from 'chai';
import { resolvedModel } from '../../support/resolved-model';
import { GatewayError, SynthesisService, type AudioEngine, type AudioFormat, type AudioSink, type ModelDirectory, type ProviderSynthesisRequest, type SynthesisRequest, type TtsProvider } from '../../../core';
import { QUIET_LOGGER } from '../../support/quiet-logger';

const MP3 = new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]);
const WAV = new Uint8Array([...new TextEncoder().encode('RIFF'), 0, 0, 0, 0, ...new TextEncoder().encode('WAVE')]);

interface Harness {
  service: SynthesisService;
  calls: ProviderSynthesisRequest[];
  engineJobs: unknown[];
  saved: { format: string; size: number }[];
}

function harness(
  synthesize: (request: ProviderSynthesisRequest) => Promise<{ audio: Uint8Array; format: 'mp3' | 'wav' | 'pcm'; sampleRate?: number }>,
  timeoutMs = 5000,
  adjustEngine: (engine: AudioEngine) => AudioEngine = (engine) => engine,
): Harness {
  const calls: ProviderSynthesisRequest[] = [];
  const engineJobs: unknown[] = [];
  const saved: { format: string; size: number }[] = [];
  const provider: TtsProvider = {
    models: async () => [],
    voices: async () => [],
    synthesize: async (request) => {
      calls.push(request);
      return { ...(await synthesize(request)), warnings: [] };
    },
  };
  const directory: ModelDirectory = {
    resolve: () => resolvedModel('acme', provider, 'acme-1', { formats: ['mp3', 'pcm'], speed: { min: 0.5, max: 2 }, maxInputChars: 20 }),
    ensureVoice: async (_model, voice) => {
      if (voice !== 'v1') throw new GatewayError('TTS_ERR_VOICE_NOT_FOUND', 'no such voice');
    },
  };
  const engine: AudioEngine = {
    decodableFormats: ['pcm', 'wav', 'mp3'],
    encodableFormats: ['pcm', 'wav', 'mp3'],
    process: async (job) => {
      engineJobs.push(job);
      return { audio: new Uint8Array(7), format: job.output, sampleRate: 24000 };
    },
    // Whole-file synthesis never opens a stream; synthesis-stream.test.ts covers streams.
    openStream: async () => {
      throw new Error('tts-sync must not stream');
    },
  };
  const sink: AudioSink = {
    save: async (audio, format) => {
      saved.push({ format, size: audio.byteLength });
      return { fileName: `file.${format}`, size: audio.byteLength };
    },
  };
  return { service: new SynthesisService(directory, adjustEngine(engine), sink, QUIET_LOGGER, { chunkConcurrency: 2, timeoutMs }), calls, engineJobs, saved };
}

const request = (overrides: Partial<SynthesisRequest> = {}): SynthesisRequest => ({ model: 'acme-model', voice: 'v1', text: 'Hello there.', speed: 1, pitch: 1, volume: 1, format: 'mp3', ...overrides });

describe('core/synthesis SynthesisService', () => {
  it('stores the provider bytes untouched when nothing is left to do', async () => {
    const test = harness(async () => ({ audio: MP3, format: 'mp3' }));
    const result = await test.service.synthesize(request({ speed: 1.5 }), { requestId: 'r1' });
    expect(test.calls).to.have.length(1);
    expect(test.calls[0]).to.include({ model: 'acme-1', voice: 'v1', format: 'mp3', speed: 1.5, requestId: 'r1' });
    expect(test.engineJobs).to.have.length(0);
    expect(result).to.include({ fileName: 'file.mp3', size: MP3.byteLength, provider: 'acme' });
    expect(result.applied).to.deep.equal({ speed: 'native', pitch: 'default', volume: 'default', format: 'native', chunks: 1 });
  });

  it('asks for PCM and runs the audio engine when the gateway must apply pitch', async () => {
    const test = harness(async () => ({ audio: new Uint8Array(4), format: 'pcm', sampleRate: 24000 }));
    await test.service.synthesize(request({ pitch: 2 }), { requestId: 'r2' });
    expect(test.calls[0].format).to.equal('pcm');
    expect(test.calls[0].pitch).to.equal(undefined);
    expect(test.engineJobs[0]).to.deep.include({ pitch: 2, speed: 1, volume: 1, output: 'mp3' });
  });

  it('synthesizes every chunk of long text, in order, and joins them once', async () => {
    const test = harness(async () => ({ audio: new Uint8Array(4), format: 'pcm', sampleRate: 24000 }));
    await test.service.synthesize(request({ text: 'First part. Second part. Third part.' }), { requestId: 'r3' });
    expect(test.calls.map((call) => call.text)).to.deep.equal(['First part.', 'Second part.', 'Third part.']);
    expect((test.engineJobs[0] as { inputs: unknown[] }).inputs).to.have.length(3);
    expect(test.saved).to.have.length(1);
  });

  it('takes a mislabelled answer at its bytes and transcodes it', async () => {
    const test = harness(async () => ({ audio: WAV, format: 'mp3' }));
    await test.service.synthesize(request(), { requestId: 'r4' });
    expect((test.engineJobs[0] as { inputs: { format: string }[] }).inputs[0].format).to.equal('wav');
  });

  it('answers 502 when the provider sends bytes that are no audio', async () => {
    const test = harness(async () => ({ audio: new TextEncoder().encode('<html>oops</html>'), format: 'mp3' }));
    const error = await test.service.synthesize(request(), { requestId: 'r5' }).catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(GatewayError).with.property('status', 502);
  });

  it('plans only once the engine knows its formats, waiting for them rather than reading them early', async () => {
    let known = false;
    let learn!: () => void;
    const pending = new Promise<void>((resolve) => {
      learn = resolve;
    });
    const test = harness(
      async () => ({ audio: MP3, format: 'mp3' }),
      5000,
      (engine) => ({
        ...engine,
        get formatsPending() {
          return known ? undefined : pending;
        },
        get decodableFormats(): readonly AudioFormat[] {
          if (!known) throw new Error('the formats were read before they were known');
          return engine.decodableFormats;
        },
      }),
    );
    const result = test.service.synthesize(request(), { requestId: 'r-formats' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(test.calls).to.have.length(0);
    known = true;
    learn();
    expect(await result).to.include({ fileName: 'file.mp3', size: MP3.byteLength });
    expect(test.calls).to.have.length(1);
  });

  it('answers 404 for an unknown voice before calling the provider', async () => {
    const test = harness(async () => ({ audio: MP3, format: 'mp3' }));
    const error = await test.service.synthesize(request({ voice: 'nope' }), { requestId: 'r6' }).catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(GatewayError).with.property('status', 404);
    expect(test.calls).to.have.length(0);
  });

  it('answers 504 when the deadline passes, and cancels the provider call', async () => {
    let seenSignal: AbortSignal | undefined;
    const test = harness(
      (call) =>
        new Promise((_resolve, reject) => {
          seenSignal = call.signal;
          call.signal.addEventListener('abort', () => reject(new GatewayError('TTS_ERR_CANCELLED', 'cancelled')));
        }),
      50,
    );
    const error = await test.service.synthesize(request(), { requestId: 'r7' }).catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(GatewayError).with.property('code', 'TTS_ERR_TIMEOUT');
    expect(seenSignal?.aborted).to.equal(true);
  });

  it('stops the other chunks when one fails', async () => {
    const signals: AbortSignal[] = [];
    const test = harness((call) => {
      signals.push(call.signal);
      if (call.text.startsWith('First')) return Promise.reject(new GatewayError('TTS_ERR_UPSTREAM', 'boom'));
      return new Promise((_resolve, reject) => call.signal.addEventListener('abort', () => reject(new GatewayError('TTS_ERR_CANCELLED', 'stopped'))));
    });
    const error = await test.service.synthesize(request({ text: 'First part. Second part. Third part.' }), { requestId: 'r8' }).catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(GatewayError).with.property('code', 'TTS_ERR_UPSTREAM');
    expect(signals.every((signal) => signal.aborted)).to.equal(true);
  });
});
