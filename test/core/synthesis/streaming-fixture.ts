/** The synthesis service over fake providers and a fake audio engine, for the streaming tests. */
import { resolvedModel } from '../../support/resolved-model';
import {
  GatewayError,
  ModelRouter,
  SynthesisService,
  type AudioChunk,
  type AudioFormat,
  type AudioEngine,
  type AudioStreamSpec,
  type ModelCapabilities,
  type ModelDirectory,
  type ProviderAudioStream,
  type ProviderSynthesisRequest,
  type SynthesisRequest,
  type TtsProvider,
} from '../../../core';
import { QUIET_LOGGER } from '../../support/quiet-logger';

/** A WAV-looking answer: the service sniffs provider bytes, so fakes must carry a real signature. */
export function wavBytes(label: string): Uint8Array {
  const bytes = new Uint8Array(44 + label.length);
  bytes.set(Buffer.from('RIFF'), 0);
  bytes.set(Buffer.from('WAVEfmt '), 8);
  bytes.set(Buffer.from(label), 44);
  return bytes;
}

/** One whole MPEG-1 layer III frame (128 kb/s, 44.1 kHz: 417 bytes), header and silent body. */
export const MP3_FRAME = Uint8Array.from([0xff, 0xfb, 0x90, 0x64, ...new Array(413).fill(0)]);

interface Recorder {
  readonly events: string[];
  readonly requests: ProviderSynthesisRequest[];
  readonly sessions: { spec: AudioStreamSpec; pushed: AudioChunk[]; ended: boolean; closed: boolean }[];
}

export function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

interface FixtureOptions {
  readonly capabilities?: Partial<ModelCapabilities>;
  readonly synthesize?: (request: ProviderSynthesisRequest, index: number) => Promise<Uint8Array>;
  /** The format the provider's answers are labelled with; wav unless a test needs another. */
  readonly label?: AudioFormat;
  readonly synthesizeStream?: (request: ProviderSynthesisRequest) => Promise<ProviderAudioStream>;
  readonly chunkConcurrency?: number;
  /** The synthesis deadline; 5 s unless a test needs it to pass. */
  readonly timeoutMs?: number;
  readonly router?: ModelRouter;
  /** Calls to this model fail with this error. */
  readonly failing?: { readonly model: string; readonly error: GatewayError };
  /** The audio store's save; one that keeps nothing unless a test needs another. */
  readonly save?: () => Promise<{ fileName: string; size: number }>;
  /** The audio engine; a recording fake (its sessions in `recorder.sessions`) unless a test needs the real one. */
  readonly engine?: AudioEngine;
}

export function fixture(options: FixtureOptions = {}) {
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
      return { audio, format: options.label ?? 'wav', warnings: [] };
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
  const sink = { save: options.save ?? (async () => ({ fileName: 'f', size: 0 })) };
  const service = new SynthesisService(directory, options.engine ?? engine, sink, QUIET_LOGGER, { chunkConcurrency: options.chunkConcurrency ?? 2, timeoutMs: options.timeoutMs ?? 5_000 }, options.router);
  return { service, recorder };
}

export const LONG_TEXT = Array.from({ length: 12 }, (_value, index) => `This is sentence number ${index + 1} of a long text that is streamed.`).join(' ');

export const request = (overrides: Partial<SynthesisRequest> = {}): SynthesisRequest => ({
  model: 'acme-1',
  voice: 'v1',
  text: LONG_TEXT,
  speed: 1,
  pitch: 1,
  volume: 1,
  format: 'mp3',
  ...overrides,
});

export async function collect(chunks: AsyncIterable<Uint8Array>, events?: string[]): Promise<string> {
  let text = '';
  for await (const chunk of chunks) {
    events?.push(`piece received`);
    text += Buffer.from(chunk).toString();
  }
  return text;
}

/** The service over a provider that streams `sent` natively as `format`, in network-sized pieces. */
export function nativeStreamService(format: AudioFormat, sent: Uint8Array, pieceBytes = 4096): SynthesisService {
  return fixture({
    capabilities: { formats: [format] },
    synthesizeStream: async () => {
      async function* body() {
        for (let offset = 0; offset < sent.length; offset += pieceBytes) yield sent.subarray(offset, offset + pieceBytes);
      }
      return { format, warnings: [], chunks: body() };
    },
  }).service;
}

/** The failure a stream ends with, read to its end; undefined when it ends well. */
export async function failureOf(chunks: AsyncIterable<Uint8Array>): Promise<GatewayError | undefined> {
  try {
    for await (const piece of chunks) void piece;
    return undefined;
  } catch (error) {
    return error as GatewayError;
  }
}
