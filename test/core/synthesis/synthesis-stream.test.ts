import { expect } from 'chai';
import { resolvedModel } from '../../support/resolved-model';
import {
  GatewayError,
  ModelRouter,
  SynthesisService,
  type AudioChunk,
  type AudioEngine,
  type AudioStreamSpec,
  type ModelCapabilities,
  type ModelDirectory,
  type ProviderAudioStream,
  type ProviderSynthesisRequest,
  type SynthesisRequest,
  type TtsProvider,
} from '../../../core';
const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** A WAV-looking answer: the service sniffs provider bytes, so fakes must carry a real signature. */
function wavBytes(label: string): Uint8Array {
  const bytes = new Uint8Array(44 + label.length);
  bytes.set(Buffer.from('RIFF'), 0);
  bytes.set(Buffer.from('WAVEfmt '), 8);
  bytes.set(Buffer.from(label), 44);
  return bytes;
}

/** One whole MPEG-1 layer III frame (128 kb/s, 44.1 kHz: 417 bytes), header and silent body. */
const MP3_FRAME = Uint8Array.from([0xff, 0xfb, 0x90, 0x64, ...new Array(413).fill(0)]);

interface Recorder {
  readonly events: string[];
  readonly requests: ProviderSynthesisRequest[];
  readonly sessions: { spec: AudioStreamSpec; pushed: AudioChunk[]; ended: boolean; closed: boolean }[];
}

function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

interface FixtureOptions {
  readonly capabilities?: Partial<ModelCapabilities>;
  readonly synthesize?: (request: ProviderSynthesisRequest, index: number) => Promise<Uint8Array>;
  readonly synthesizeStream?: (request: ProviderSynthesisRequest) => Promise<ProviderAudioStream>;
  readonly chunkConcurrency?: number;
  readonly router?: ModelRouter;
  /** Calls to this model fail with this error. */
  readonly failing?: { readonly model: string; readonly error: GatewayError };
}

function fixture(options: FixtureOptions = {}) {
  const recorder: Recorder = { events: [], requests: [], sessions: [] };
  let calls = 0;
  const provider: TtsProvider = {
    models: async () => [],
    voices: async () => [],
    synthesize: async (request) => {
      const index = calls++;
      recorder.requests.push(request);
      if (options.failing?.model === request.model) throw options.failing.error;
      recorder.events.push(`call ${index} started`);
      const audio = options.synthesize ? await options.synthesize(request, index) : wavBytes(request.text);
      recorder.events.push(`call ${index} finished`);
      return { audio, format: 'wav', warnings: [] };
    },
    ...(options.synthesizeStream ? { synthesizeStream: options.synthesizeStream } : {}),
  };
  const capabilities: ModelCapabilities = { formats: ['wav', 'mp3'], maxInputChars: 4000, ...options.capabilities };
  const directory: ModelDirectory = {
    resolve: (model) => {
      if (!['acme-1', 'backup-1'].includes(model)) throw new GatewayError('TTS_ERR_MODEL_NOT_FOUND', `no model ${model}`);
      return resolvedModel(model.split('-')[0], provider, model, capabilities);
    },
    ensureVoice: async (_model, voice) => {
      if (!['v1', 'v2'].includes(voice)) throw new GatewayError('TTS_ERR_VOICE_NOT_FOUND', 'no such voice');
    },
  };
  const engine: AudioEngine = {
    decodableFormats: ['wav', 'mp3', 'pcm'],
    encodableFormats: ['wav', 'mp3', 'pcm'],
    process: async () => {
      throw new Error('streams do not use whole jobs');
    },
    openStream: async (spec) => {
      const session = { spec, pushed: [] as AudioChunk[], ended: false, closed: false };
      recorder.sessions.push(session);
      return {
        push: async (input) => {
          if (session.closed) throw new Error('pushed after close');
          session.pushed.push(input);
          return { audio: Buffer.from(`encoded ${session.pushed.length};`), sampleRate: 22050, durationSeconds: session.pushed.length };
        },
        end: async () => {
          session.ended = true;
          session.closed = true;
          return { audio: Buffer.from('tail;'), sampleRate: 22050, durationSeconds: session.pushed.length };
        },
        close: async () => {
          session.closed = true;
        },
      };
    },
  };
  const sink = { save: async () => ({ fileName: 'f', size: 0 }) };
  const service = new SynthesisService(directory, engine, sink, quiet, { chunkConcurrency: options.chunkConcurrency ?? 2, timeoutMs: 5_000 }, options.router);
  return { service, recorder };
}

const LONG_TEXT = Array.from({ length: 12 }, (_value, index) => `This is sentence number ${index + 1} of a long text that is streamed.`).join(' ');

const request = (overrides: Partial<SynthesisRequest> = {}): SynthesisRequest => ({
  model: 'acme-1',
  voice: 'v1',
  text: LONG_TEXT,
  speed: 1,
  pitch: 1,
  volume: 1,
  format: 'mp3',
  ...overrides,
});

async function collect(chunks: AsyncIterable<Uint8Array>, events?: string[]): Promise<string> {
  let text = '';
  for await (const chunk of chunks) {
    events?.push(`piece received`);
    text += Buffer.from(chunk).toString();
  }
  return text;
}

describe('core/synthesis streaming', () => {
  it('splits text into short first and growing later chunks and encodes them in order through one session', async () => {
    const { service, recorder } = fixture();
    const stream = await service.stream(request(), { requestId: 'r1' });
    const output = await collect(stream.chunks);
    const texts = recorder.requests.map((call) => call.text);
    expect(texts.length).to.be.greaterThan(2);
    expect([...texts[0]].length).to.be.at.most(100);
    expect(texts.join(' ')).to.equal(LONG_TEXT);
    expect(recorder.sessions).to.have.length(1);
    const [session] = recorder.sessions;
    expect(session.pushed.map((chunk) => Buffer.from(chunk.audio.subarray(44)).toString())).to.deep.equal(texts);
    expect(session.ended).to.equal(true);
    expect(output).to.equal(`${texts.map((_text, index) => `encoded ${index + 1};`).join('')}tail;`);
    expect(stream.progress.bytes).to.equal(Buffer.byteLength(output));
    expect(stream.applied.chunks).to.equal(texts.length);
  });

  it('streams a text of many chunks without a listener-leak warning (each call is linked to the stream by design)', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on('warning', onWarning);
    try {
      const text = Array.from({ length: 300 }, (_value, index) => `Sentence ${index + 1} is here.`).join(' ');
      const { service, recorder } = fixture();
      const stream = await service.stream(request({ text }), { requestId: 'r-many', signal: new AbortController().signal });
      await collect(stream.chunks);
      expect(recorder.requests.length).to.be.greaterThan(11);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning').map((warning) => warning.message)).to.deep.equal([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('hands the first audio on before the last chunk is synthesized', async () => {
    const last = gate();
    let count = 0;
    const { service, recorder } = fixture({
      synthesize: async (call, index) => {
        count = Math.max(count, index + 1);
        // The final chunk waits until the client has audio in hand.
        if (index >= 2 && call.text.includes('12 of')) await last.promise;
        return wavBytes(call.text);
      },
    });
    const stream = await service.stream(request(), { requestId: 'r2' });
    const iterator = stream.chunks[Symbol.asyncIterator]();
    const first = await iterator.next();
    recorder.events.push('first piece received');
    expect(first.done).to.equal(false);
    last.open();
    for (let next = await iterator.next(); !next.done; next = await iterator.next());
    const firstPiece = recorder.events.indexOf('first piece received');
    const lastFinished = recorder.events.lastIndexOf(`call ${recorder.requests.length - 1} finished`);
    expect(firstPiece).to.be.greaterThan(-1);
    expect(firstPiece).to.be.lessThan(lastFinished);
    expect(count).to.equal(recorder.requests.length);
  });

  it('synthesizes only a bounded number of chunks ahead of a reader that does not read', async () => {
    const { service, recorder } = fixture({ chunkConcurrency: 2 });
    const stream = await service.stream(request(), { requestId: 'r3' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The first piece is out; at most two more calls run ahead of it.
    expect(recorder.requests.length).to.be.at.most(3);
    await collect(stream.chunks);
  });

  it('runs no calls ahead while more streams are open than the shared look-ahead allows, and ahead again once they end', async () => {
    // The first calls answer once all twelve streams have started: every stream is open by then.
    const allStarted = gate();
    const { service, recorder } = fixture({
      chunkConcurrency: 2,
      synthesize: async (call, index) => {
        if (index === 11) allStarted.open();
        await allStarted.promise;
        return wavBytes(call.text);
      },
    });
    const streams = await Promise.all(Array.from({ length: 12 }, (_value, index) => service.stream(request(), { requestId: `many-${index}` })));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const callsOf = (requestId: string): number => recorder.requests.filter((call) => call.requestId === requestId).length;
    // Each stream's first piece is out and nobody reads: each made only the call for that piece.
    expect(streams.map((_stream, index) => callsOf(`many-${index}`))).to.deep.equal(new Array(12).fill(1));
    const iterators = streams.map((stream) => stream.chunks[Symbol.asyncIterator]());
    for (const iterator of iterators.slice(1)) {
      await iterator.next();
      await iterator.return?.(undefined);
    }
    // Alone now: taking its next chunk starts the one after it too.
    const [last] = iterators;
    await last.next();
    await last.next();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(callsOf('many-0')).to.equal(3);
    for (let next = await last.next(); !next.done; next = await last.next());
  });

  it('stops the provider calls and releases the session when the reader stops', async () => {
    const signals: AbortSignal[] = [];
    const { service, recorder } = fixture({
      synthesize: async (call, index) => {
        signals.push(call.signal);
        if (index > 0) await new Promise((resolve) => setTimeout(resolve, 20));
        return wavBytes(call.text);
      },
    });
    const stream = await service.stream(request(), { requestId: 'r4' });
    for await (const _chunk of stream.chunks) break;
    const callsAtStop = recorder.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(recorder.requests.length).to.equal(callsAtStop);
    expect(recorder.sessions[0].closed).to.equal(true);
    expect(recorder.sessions[0].ended).to.equal(false);
    expect(signals.every((signal) => signal.aborted)).to.equal(true);
  });

  it('stops when the client goes away', async () => {
    const client = new AbortController();
    const signals: AbortSignal[] = [];
    const { service, recorder } = fixture({
      synthesize: async (call, index) => {
        signals.push(call.signal);
        if (index > 0) await new Promise((_resolve, reject) => call.signal.addEventListener('abort', () => reject(new GatewayError('TTS_ERR_CANCELLED', 'gone'))));
        return wavBytes(call.text);
      },
    });
    const stream = await service.stream(request(), { requestId: 'r5', signal: client.signal });
    const iterator = stream.chunks[Symbol.asyncIterator]();
    await iterator.next();
    client.abort();
    const failure = await iterator.next().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((failure as GatewayError).code).to.equal('TTS_ERR_CANCELLED');
    expect(recorder.sessions[0].closed).to.equal(true);
    expect(signals.every((signal) => signal.aborted)).to.equal(true);
  });

  it('fails the iteration with the provider error when a later chunk fails', async () => {
    const { service, recorder } = fixture({
      synthesize: async (call, index) => {
        if (index === 2) throw new GatewayError('TTS_ERR_UPSTREAM', 'provider broke');
        return wavBytes(call.text);
      },
    });
    const stream = await service.stream(request(), { requestId: 'r6' });
    const failure = await collect(stream.chunks).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((failure as GatewayError).code).to.equal('TTS_ERR_UPSTREAM');
    expect(recorder.sessions[0].closed).to.equal(true);
    expect(recorder.sessions[0].ended).to.equal(false);
  });

  it('rejects before any audio when the model, the voice or the first chunk fails', async () => {
    const { service } = fixture({
      synthesize: async () => {
        throw new GatewayError('TTS_ERR_UPSTREAM_AUTH', 'bad upstream key');
      },
    });
    const codeOf = (promise: Promise<unknown>) => promise.then(() => 'resolved', (error: GatewayError) => error.code);
    expect(await codeOf(service.stream(request({ model: 'nope' }), { requestId: 'r7' }))).to.equal('TTS_ERR_MODEL_NOT_FOUND');
    expect(await codeOf(service.stream(request({ voice: 'nope' }), { requestId: 'r7' }))).to.equal('TTS_ERR_VOICE_NOT_FOUND');
    expect(await codeOf(service.stream(request(), { requestId: 'r7' }))).to.equal('TTS_ERR_UPSTREAM_AUTH');
  });

  it('passes a provider stream through as it arrives when nothing is to be done', async () => {
    const second = gate();
    const received: string[] = [];
    const requests: ProviderSynthesisRequest[] = [];
    const { service, recorder } = fixture({
      synthesizeStream: async (call) => {
        requests.push(call);
        async function* body() {
          yield MP3_FRAME;
          await second.promise;
          yield Buffer.from('rest of the stream');
        }
        return { format: 'mp3', warnings: [], chunks: body() };
      },
    });
    const stream = await service.stream(request({ text: 'A short text that one call takes whole.' }), { requestId: 'r8' });
    const iterator = stream.chunks[Symbol.asyncIterator]();
    const first = await iterator.next();
    received.push(`first ${first.value?.byteLength}`);
    second.open();
    const next = await iterator.next();
    received.push(Buffer.from(next.value as Uint8Array).toString());
    expect((await iterator.next()).done).to.equal(true);
    expect(received).to.deep.equal([`first ${MP3_FRAME.byteLength}`, 'rest of the stream']);
    expect(requests).to.have.length(1);
    expect(requests[0].text).to.equal('A short text that one call takes whole.');
    expect(recorder.sessions).to.have.length(0);
    expect(stream.applied.format).to.equal('native');
  });

  it('refuses a provider stream that is not the audio it claims to be', async () => {
    const { service } = fixture({
      synthesizeStream: async () => {
        async function* body() {
          yield Buffer.from('{"error":"this is JSON, not audio at all"}');
        }
        return { format: 'mp3', warnings: [], chunks: body() };
      },
    });
    const code = await service.stream(request({ text: 'Short.' }), { requestId: 'r9' }).then(() => 'resolved', (error: GatewayError) => error.code);
    expect(code).to.equal('TTS_ERR_UPSTREAM_BAD_RESPONSE');
  });

  it('resamples pcm to the rate the client needs, through a session', async () => {
    const { service, recorder } = fixture({ capabilities: { formats: ['wav', 'pcm'], pcmSampleRate: 22050 } });
    const stream = await service.stream(request({ text: 'Short.', format: 'pcm', sampleRate: 24000 }), { requestId: 'r10' });
    await collect(stream.chunks);
    expect(recorder.sessions[0].spec).to.include({ output: 'pcm', sampleRate: 24000 });
  });

  it('sends instructions only to models that take them, and says when they were ignored', async () => {
    const takes = fixture({ capabilities: { instructions: true } });
    const withInstructions = await takes.service.stream(request({ text: 'Short.', instructions: 'Speak warmly.' }), { requestId: 'r11' });
    await collect(withInstructions.chunks);
    expect(takes.recorder.requests[0].instructions).to.equal('Speak warmly.');
    expect(withInstructions.instructionsIgnored).to.equal(false);

    const ignores = fixture();
    const without = await ignores.service.stream(request({ text: 'Short.', instructions: 'Speak warmly.' }), { requestId: 'r12' });
    await collect(without.chunks);
    expect(ignores.recorder.requests[0].instructions).to.equal(undefined);
    expect(without.instructionsIgnored).to.equal(true);
  });

  it('serves an alias by its target model, mapping the voice', async () => {
    const router = new ModelRouter([{ name: 'tts-1', strategy: 'fallback', targets: [{ model: 'acme-1', voices: { alloy: 'v2' } }] }], (model: string) => model === 'acme-1');
    const { service, recorder } = fixture({ router });
    const stream = await service.stream(request({ model: 'tts-1', voice: 'alloy', text: 'Short.' }), { requestId: 'r13' });
    await collect(stream.chunks);
    expect(recorder.requests[0]).to.include({ model: 'acme-1', voice: 'v2' });
    expect(stream.servedBy).to.equal('acme-1/v2');
  });

  describe('fallback routes', () => {
    const narrator = new ModelRouter(
      [{ name: 'narrator', strategy: 'fallback', targets: [{ model: 'acme-1', voices: { calm: 'v1' } }, { model: 'backup-1', voices: { calm: 'v2' } }] }],
      (model: string) => ['acme-1', 'backup-1'].includes(model),
    );

    it('falls to the next target when the first fails in a way another provider may not', async () => {
      const { service, recorder } = fixture({ router: narrator, failing: { model: 'acme-1', error: new GatewayError('TTS_ERR_UPSTREAM', 'acme is down') } });
      const stream = await service.stream(request({ model: 'narrator', voice: 'calm', text: 'Short.' }), { requestId: 'f1' });
      await collect(stream.chunks);
      expect(recorder.requests.map((call) => `${call.model}/${call.voice}`)).to.deep.equal(['acme-1/v1', 'backup-1/v2']);
      expect(stream.servedBy).to.equal('backup-1/v2');
      expect(stream.provider).to.equal('backup');
    });

    it('does not fall back on the client\'s own error', async () => {
      const { service, recorder } = fixture({ router: narrator, failing: { model: 'acme-1', error: new GatewayError('TTS_ERR_VALIDATION', 'bad text') } });
      const code = await service.stream(request({ model: 'narrator', voice: 'calm', text: 'Short.' }), { requestId: 'f2' }).then(() => 'resolved', (error: GatewayError) => error.code);
      expect(code).to.equal('TTS_ERR_VALIDATION');
      expect(recorder.requests).to.have.length(1);
    });

    it('falls back for whole files too, and fails with the last error when every target fails', async () => {
      const { service, recorder } = fixture({ router: narrator, failing: { model: 'acme-1', error: new GatewayError('TTS_ERR_UNAVAILABLE', 'breaker open', { retryAfterSeconds: 30 }) } });
      const result = await service.synthesize(request({ model: 'narrator', voice: 'calm', text: 'Short.', format: 'wav' }), { requestId: 'f3' });
      expect(result.servedBy).to.equal('backup-1/v2');
      expect(recorder.requests).to.have.length(2);
    });
  });
});
