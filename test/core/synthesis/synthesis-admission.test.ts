import { expect } from 'chai';
import {
  GatewayError,
  SynthesisService,
  type AudioEngine,
  type ModelCapabilities,
  type ProcessingReservation,
  type TtsProvider,
  type WorkControl,
} from '../../../core';
import { resolvedModel } from '../../support/resolved-model';
import { FOUR_CHUNKS, fourChunkRequest as request } from './four-chunk-request';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { QUIET_LOGGER } from '../../support/quiet-logger';

const RATE = 8000;

interface Reserve {
  readonly output: string;
  readonly audioSeconds: number;
  readonly deadline: number;
  released: number;
}

interface AdmissionHarness {
  readonly service: SynthesisService;
  readonly providerCalls: number;
  readonly reservations: Reserve[];
  readonly jobControls: (WorkControl | undefined)[];
}

/** A provider answering 1 s of pcm per chunk (or failing), and an engine that records its promises or refuses them. */
function harness(options: { refuse?: boolean; providerFails?: boolean } = {}): AdmissionHarness {
  const state = { providerCalls: 0 };
  const reservations: Reserve[] = [];
  const jobControls: (WorkControl | undefined)[] = [];
  const provider: TtsProvider = {
    models: async () => [],
    voices: async () => [],
    synthesize: async () => {
      state.providerCalls += 1;
      if (options.providerFails) throw new GatewayError('TTS_ERR_UPSTREAM_BAD_RESPONSE', 'broken');
      return { audio: new Uint8Array(RATE * 2), format: 'pcm', sampleRate: RATE, warnings: [] };
    },
  };
  const capabilities: ModelCapabilities = { formats: ['pcm', 'mp3'], maxInputChars: 30 };
  const engine: AudioEngine = {
    decodableFormats: ['pcm', 'wav', 'mp3'],
    encodableFormats: ['pcm', 'wav', 'mp3'],
    process: async (job, control) => {
      jobControls.push(control);
      return { audio: new Uint8Array(16), format: job.output, sampleRate: RATE, durationSeconds: job.inputs.length };
    },
    openStream: async () => expect.fail('no stream here'),
    reserveProcessing: (output, audioSeconds, deadline): ProcessingReservation => {
      if (options.refuse) throw new GatewayError('TTS_ERR_UNAVAILABLE', 'The audio pool is unavailable: it cannot finish this work in time', { retryAfterSeconds: 7 });
      const entry: Reserve = { output, audioSeconds, deadline, released: 0 };
      reservations.push(entry);
      return { release: () => void (entry.released += 1) };
    },
  };
  const service = new SynthesisService(
    { resolve: () => resolvedModel('acme', provider, 'acme-1', capabilities), ensureVoice: async () => undefined },
    engine,
    { save: async (audio, format) => ({ fileName: `file.${format}`, size: audio.byteLength }) },
    QUIET_LOGGER,
    { chunkConcurrency: 2, timeoutMs: 10_000 },
  );
  return {
    service,
    get providerCalls() {
      return state.providerCalls;
    },
    reservations,
    jobControls,
  };
}


describe('core/synthesis admission of the audio processing (refused before synthesis, not after)', () => {
  it('refuses a whole file the audio engine could not process in time before any provider call (503, Retry-After)', async () => {
    const test = harness({ refuse: true });
    const error = await expectGatewayError(test.service.synthesize(request(), { requestId: 'r1' }));
    expect(error.code).to.equal('TTS_ERR_UNAVAILABLE');
    expect(error.retryAfterSeconds).to.equal(7);
    expect(test.providerCalls).to.equal(0);
  });

  it('promises the room for the expected audio by the deadline, and hands it to the processing job', async () => {
    const test = harness();
    const before = Date.now();
    await test.service.synthesize(request(), { requestId: 'r2' });
    expect(test.reservations).to.have.length(1);
    const [promised] = test.reservations;
    expect(promised.output).to.equal('mp3');
    // Its letters at a typical 12 a second.
    expect(promised.audioSeconds).to.be.closeTo((FOUR_CHUNKS.match(/[\p{L}\p{N}]/gu)?.length ?? 0) / 12, 0.01);
    expect(promised.deadline).to.be.within(before + 10_000, Date.now() + 10_000);
    expect(test.jobControls).to.have.length(1);
    expect(test.jobControls[0]?.reservation).to.not.equal(undefined);
    test.jobControls[0]?.reservation?.release();
    expect(promised.released).to.be.at.least(1);
  });

  it('gives the room back when the synthesis fails before the processing', async () => {
    const test = harness({ providerFails: true });
    await expectGatewayError(test.service.synthesize(request(), { requestId: 'r4' }));
    expect(test.reservations).to.have.length(1);
    expect(test.reservations[0].released).to.be.at.least(1);
    expect(test.jobControls).to.have.length(0);
  });

  it('promises nothing for a single chunk the provider answers in the requested format', async () => {
    const test = harness();
    await test.service.synthesize(request({ text: 'Short one.', format: 'pcm' }), { requestId: 'r5' });
    expect(test.reservations).to.have.length(0);
  });
});
