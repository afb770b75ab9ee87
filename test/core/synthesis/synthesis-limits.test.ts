import { expect } from 'chai';
import {
  SynthesisService,
  type AudioEngine,
  type AudioSink,
  type ModelCapabilities,
  type ModelDirectory,
  type ProviderSynthesisRequest,
  type SaveControl,
  type TtsProvider,
} from '../../../core';
import { resolvedModel } from '../../support/resolved-model';
import { fourChunkRequest as request } from './four-chunk-request';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { QUIET_LOGGER } from '../../support/quiet-logger';

const RATE = 8000;

/** `seconds` of silent 16-bit pcm at 8 kHz: its length is exact from its size. */
const pcmSeconds = (seconds: number): Uint8Array => new Uint8Array(seconds * RATE * 2);

interface LimitsHarness {
  readonly service: SynthesisService;
  readonly calls: ProviderSynthesisRequest[];
  readonly saved: { size: number; control?: SaveControl }[];
  readonly engineJobs: number;
  readonly pushes: number;
}

interface HarnessOptions {
  readonly maxAudioSeconds: number;
  /** Each provider answer, by call index. */
  readonly answer?: (request: ProviderSynthesisRequest, index: number) => Promise<Uint8Array>;
  readonly capabilities?: Partial<ModelCapabilities>;
  readonly timeoutMs?: number;
  readonly chunkConcurrency?: number;
  /** Seconds of output a stream session reports per pushed second of input. */
  readonly streamSecondsPerInput?: number;
}

function limitsHarness(options: HarnessOptions): LimitsHarness {
  const calls: ProviderSynthesisRequest[] = [];
  const saved: { size: number; control?: SaveControl }[] = [];
  const state = { engineJobs: 0, pushes: 0 };
  const provider: TtsProvider = {
    models: async () => [],
    voices: async () => [],
    synthesize: async (request) => {
      const index = calls.length;
      calls.push(request);
      const audio = options.answer ? await options.answer(request, index) : pcmSeconds(3);
      return { audio, format: 'pcm', sampleRate: RATE, warnings: [] };
    },
  };
  const capabilities: ModelCapabilities = { formats: ['pcm', 'mp3'], maxInputChars: 30, ...options.capabilities };
  const directory: ModelDirectory = {
    resolve: () => resolvedModel('acme', provider, 'acme-1', capabilities),
    ensureVoice: async () => undefined,
  };
  const engine: AudioEngine = {
    decodableFormats: ['pcm', 'wav', 'mp3'],
    encodableFormats: ['pcm', 'wav', 'mp3'],
    process: async (job) => {
      state.engineJobs += 1;
      const seconds = job.inputs.reduce((total, input) => total + input.audio.byteLength / 2 / RATE, 0) / job.speed;
      return { audio: new Uint8Array(16), format: job.output, sampleRate: RATE, durationSeconds: seconds };
    },
    openStream: async () => {
      let seconds = 0;
      return {
        push: async (input) => {
          state.pushes += 1;
          seconds += (input.audio.byteLength / 2 / RATE) * (options.streamSecondsPerInput ?? 1);
          return { audio: new Uint8Array(8), sampleRate: RATE, durationSeconds: seconds };
        },
        end: async () => ({ audio: new Uint8Array(1), sampleRate: RATE, durationSeconds: seconds }),
        close: async () => undefined,
      };
    },
  };
  const sink: AudioSink = {
    save: async (audio, format, _sampleRate, control) => {
      saved.push({ size: audio.byteLength, control });
      return { fileName: `file.${format}`, size: audio.byteLength };
    },
  };
  const service = new SynthesisService(directory, engine, sink, QUIET_LOGGER, {
    chunkConcurrency: options.chunkConcurrency ?? 1,
    timeoutMs: options.timeoutMs ?? 10_000,
    maxAudioSeconds: options.maxAudioSeconds,
  });
  return {
    service,
    calls,
    saved,
    get engineJobs() {
      return state.engineJobs;
    },
    get pushes() {
      return state.pushes;
    },
  };
}


async function drain(chunks: AsyncIterable<Uint8Array>): Promise<void> {
  for await (const _piece of chunks) {
    // Read to the end.
  }
}

describe('core/synthesis maxAudioDuration (bounded output)', () => {
  it('refuses up front, before any provider call, a text whose fastest reading is already too long', async () => {
    const test = limitsHarness({ maxAudioSeconds: 10 });
    // 1,000 letters: at least 25 s even read at 40 letters a second.
    const long = request({ text: 'a'.repeat(1000), speed: 1 });
    const error = await expectGatewayError(test.service.synthesize(long, { requestId: 'r1' }));
    expect(error.code).to.equal('TTS_ERR_AUDIO_TOO_LONG');
    expect(error.status).to.equal(413);
    expect(error.message).to.equal('The audio would be longer than the limit of 10 s: even read at the fastest, this text makes at least 25 s of audio');
    const streamed = await expectGatewayError(test.service.stream(long, { requestId: 'r2' }));
    expect(streamed.code).to.equal('TTS_ERR_AUDIO_TOO_LONG');
    expect(test.calls).to.have.length(0);
  });

  it('counts only letters and digits for the bound, so punctuation and spaces cannot trip it', async () => {
    const test = limitsHarness({ maxAudioSeconds: 10, answer: async () => pcmSeconds(1), capabilities: { maxInputChars: 4000 } });
    await test.service.synthesize(request({ text: `${'. '.repeat(600)}Hi.` }), { requestId: 'r1' });
    expect(test.saved).to.have.length(1);
  });

  it('stops a whole file as soon as the answers add up past the limit: no more calls, no audio job, nothing stored', async () => {
    const test = limitsHarness({ maxAudioSeconds: 7 });
    const error = await expectGatewayError(test.service.synthesize(request(), { requestId: 'r1' }));
    expect(error.code).to.equal('TTS_ERR_AUDIO_TOO_LONG');
    expect(error.message).to.equal('The audio would be longer than the limit of 7 s: the synthesis was stopped');
    // 3 s each: the third answer makes 9 s, the fourth chunk is never asked for.
    expect(test.calls).to.have.length(3);
    expect(test.engineJobs).to.equal(0);
    expect(test.saved).to.have.length(0);
  });

  it("counts the gateway's own tempo change: at half speed each answer lasts twice as long", async () => {
    // No native speed: the gateway slows the audio down itself.
    const test = limitsHarness({ maxAudioSeconds: 7, capabilities: { speed: undefined } });
    await expectGatewayError(test.service.synthesize(request({ speed: 0.5 }), { requestId: 'r1' }));
    expect(test.calls).to.have.length(2);
  });

  it('cancels the calls still running when the limit is passed', async () => {
    const signals: AbortSignal[] = [];
    const test = limitsHarness({
      maxAudioSeconds: 2,
      chunkConcurrency: 4,
      answer: async (call, index) => {
        signals.push(call.signal);
        if (index === 0) return pcmSeconds(3);
        // The others wait until they are cancelled.
        await new Promise((resolve) => call.signal.addEventListener('abort', resolve));
        return pcmSeconds(1);
      },
    });
    const error = await expectGatewayError(test.service.synthesize(request(), { requestId: 'r1' }));
    expect(error.code).to.equal('TTS_ERR_AUDIO_TOO_LONG');
    expect(signals.length).to.be.at.least(2);
    expect(signals.every((signal) => signal.aborted)).to.equal(true);
  });

  it('checks the decoded length the audio engine reports for the whole file', async () => {
    // Answers in a format the service cannot measure cheaply are checked once the engine decoded them.
    const test = limitsHarness({ maxAudioSeconds: 7, answer: async () => pcmSeconds(3) });
    const result = await test.service.synthesize(request({ text: 'Short one. Another one.' }), { requestId: 'r1' });
    expect(result.fileName).to.equal('file.mp3');
    expect(test.engineJobs).to.equal(1);
  });

  it('stops a stream once the session has made more than the limit, and cancels the calls ahead', async () => {
    const signals: AbortSignal[] = [];
    const test = limitsHarness({
      maxAudioSeconds: 5,
      chunkConcurrency: 2,
      answer: async (call) => {
        signals.push(call.signal);
        return pcmSeconds(2);
      },
    });
    const stream = await test.service.stream(request(), { requestId: 'r1' });
    const error = await expectGatewayError(drain(stream.chunks));
    expect(error.code).to.equal('TTS_ERR_AUDIO_TOO_LONG');
    // 2 s per chunk: the third push makes 6 s; the fourth chunk is never pushed.
    expect(test.pushes).to.equal(3);
    expect(signals.filter((signal) => !signal.aborted).length).to.be.at.most(3);
  });
});

describe('core/synthesis deadlines at every stage', () => {
  it('tells the provider its deadline, and marks the later calls of a stream as continuing admitted work', async () => {
    const test = limitsHarness({ maxAudioSeconds: 600, answer: async () => pcmSeconds(1) });
    const before = Date.now();
    await test.service.synthesize(request(), { requestId: 'r1' });
    expect(test.calls).to.have.length(4);
    for (const call of test.calls) {
      expect(call.deadline).to.be.within(before + 10_000, Date.now() + 10_000);
      expect(call.continuation).to.equal(undefined);
    }
    const stream = await test.service.stream(request(), { requestId: 'r2' });
    await drain(stream.chunks);
    const streamCalls = test.calls.slice(4);
    expect(streamCalls.every((call) => typeof call.deadline === 'number')).to.equal(true);
    // The first call may be refused for load (nothing was sent yet); the others may not.
    expect(streamCalls.map((call) => call.continuation === true)).to.deep.equal([false, true, true, true]);
  });

  it('stores nothing once the deadline has passed, even when the provider answered anyway', async () => {
    const test = limitsHarness({
      maxAudioSeconds: 600,
      timeoutMs: 50,
      // A provider that ignores its signal and answers after the deadline.
      answer: async (call) => {
        await new Promise((resolve) => call.signal.addEventListener('abort', resolve));
        return pcmSeconds(1);
      },
    });
    const error = await expectGatewayError(test.service.synthesize(request({ text: 'One chunk only.', format: 'pcm' }), { requestId: 'r1' }));
    expect(error.code).to.equal('TTS_ERR_TIMEOUT');
    expect(test.saved).to.have.length(0);
  });

  it('stores the file for the account that asked (for its storage quota) with the request signal', async () => {
    const test = limitsHarness({ maxAudioSeconds: 600, answer: async () => pcmSeconds(1) });
    await test.service.synthesize(request(), { requestId: 'r1', accountId: 'account-7' });
    expect(test.saved[0].control?.owner).to.equal('account-7');
    expect(test.saved[0].control?.signal).to.be.instanceOf(AbortSignal);
  });
});
