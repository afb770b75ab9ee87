/**
 * The real synthesis pipeline for one built-in plugin, in-process: the plugin loader (options
 * validated by the plugin's schema) -> Catalog -> SynthesisService with the worker-pool audio
 * engine and an in-memory sink. The provider is wrapped to keep what the gateway asked of it.
 */
import { join } from 'node:path';
import {
  Catalog,
  loadProviders,
  SynthesisService,
  type AudioFormat,
  type AudioProcessor,
  type AudioSink,
  type LoadedProvider,
  type ModelInfo,
  type ProviderAudio,
  type ProviderSynthesisRequest,
  type SynthesisRequest,
  type SynthesisResult,
  type TtsProvider,
  type VoiceInfo,
} from '../../core';
import { audioEngine, modelDirectory } from '../../server/gateway-adapters';
import type { SentSynthesis } from './outgoing-requests';
import { QUIET_LOGGER } from '../support/quiet-logger';


/** The built plugins next to the compiled tests (dist/plugins). */
const BUILT_IN_PLUGINS = join(__dirname, '..', '..', 'plugins');

export interface ProviderCall {
  readonly request: ProviderSynthesisRequest;
  audio?: ProviderAudio;
}

/** A provider that passes everything through and keeps each synthesis call, in call order. */
class RecordingProvider implements TtsProvider {
  readonly calls: ProviderCall[] = [];

  constructor(private readonly inner: TtsProvider) {}

  models(signal?: AbortSignal): Promise<readonly ModelInfo[]> {
    return this.inner.models(signal);
  }

  voices(model: string, signal?: AbortSignal): Promise<readonly VoiceInfo[]> {
    return this.inner.voices(model, signal);
  }

  async synthesize(request: ProviderSynthesisRequest): Promise<ProviderAudio> {
    const call: ProviderCall = { request };
    this.calls.push(call);
    call.audio = await this.inner.synthesize(request);
    // It keeps the bytes for the checks, so it does not give their buffer away (ProviderAudio.transferable).
    return { ...call.audio, transferable: false };
  }

  async close(): Promise<void> {
    await this.inner.close?.();
  }
}

export interface StoredAudio {
  readonly audio: Uint8Array;
  readonly format: AudioFormat;
  readonly sampleRate?: number;
}

/** An AudioSink that keeps the bytes in memory. */
class MemorySink implements AudioSink {
  readonly files = new Map<string, StoredAudio>();

  async save(audio: Uint8Array, format: AudioFormat, sampleRate?: number): Promise<{ fileName: string; size: number }> {
    const fileName = `audio-${this.files.size + 1}.${format}`;
    this.files.set(fileName, { audio: new Uint8Array(audio), format, sampleRate });
    return { fileName, size: audio.byteLength };
  }
}

export interface PipelineSetup {
  readonly pluginId: string;
  readonly options: Record<string, unknown>;
  readonly fetch: typeof fetch;
  /** The synthesis calls the provider's API (stand-in) has received so far; absent without one. */
  readonly sent?: () => SentSynthesis[];
  readonly stop?: () => Promise<void>;
}

export interface Synthesized {
  readonly result: SynthesisResult;
  readonly stored: StoredAudio;
  /** What the gateway asked of the provider for this request, one entry per chunk. */
  readonly providerCalls: readonly ProviderCall[];
  /** What the provider's API received for this request, one entry per chunk (when observable). */
  readonly sent?: readonly SentSynthesis[];
  /** Files the sink stored for this request. */
  readonly filesSaved: number;
}

export class SemanticsPipeline {
  private constructor(
    private readonly setup: PipelineSetup,
    readonly loaded: LoadedProvider,
    private readonly recorder: RecordingProvider,
    readonly catalog: Catalog,
    private readonly service: SynthesisService,
    private readonly sink: MemorySink,
  ) {}

  static async start(setup: PipelineSetup, processor: AudioProcessor): Promise<SemanticsPipeline> {
    const [loaded] = await loadProviders([{ plugin: setup.pluginId, options: setup.options }], {
      builtInDirectory: BUILT_IN_PLUGINS,
      configDirectory: process.cwd(),
      logger: QUIET_LOGGER,
      fetch: setup.fetch,
      signal: new AbortController().signal,
    });
    const recorder = new RecordingProvider(loaded.provider);
    const recorded: LoadedProvider = { ...loaded, provider: recorder };
    const catalog = new Catalog([recorded], { voiceTtlMs: 600_000, logger: QUIET_LOGGER });
    const sink = new MemorySink();
    const service = new SynthesisService(modelDirectory(catalog), audioEngine(processor), sink, QUIET_LOGGER, { chunkConcurrency: 4, timeoutMs: 120_000 });
    return new SemanticsPipeline(setup, recorded, recorder, catalog, service, sink);
  }

  capabilities(model: string): ModelInfo['capabilities'] {
    return this.catalog.resolve(model).modelInfo.capabilities;
  }

  async firstVoice(model: string): Promise<string> {
    const voices = await this.catalog.listVoices(model);
    if (voices.length === 0) throw new Error(`model ${model} lists no voice`);
    return voices[0].voiceId;
  }

  async synthesize(request: SynthesisRequest): Promise<Synthesized> {
    const callsBefore = this.recorder.calls.length;
    const sentBefore = this.setup.sent?.().length ?? 0;
    const filesBefore = this.sink.files.size;
    const result = await this.service.synthesize(request, { requestId: `semantics-${callsBefore}` });
    const stored = this.sink.files.get(result.fileName);
    if (!stored) throw new Error(`the sink has no ${result.fileName}`);
    return { result, stored, providerCalls: this.recorder.calls.slice(callsBefore), sent: this.setup.sent?.().slice(sentBefore), filesSaved: this.sink.files.size - filesBefore };
  }

  async close(): Promise<void> {
    await this.recorder.close();
    await this.setup.stop?.();
  }
}
