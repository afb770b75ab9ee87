import type { ResiliencePolicy } from '../../../config/types';
import {
  GatewayError,
  upstreamError,
  type ModelInfo,
  type ProviderAudio,
  type ProviderSynthesisRequest,
  type TtsProvider,
  type VoiceInfo,
} from '../../../core';
import { providerRequest } from '../../support/provider-request';

/** One scripted answer of the provider to a synthesis call. */
export type Step = (request: ProviderSynthesisRequest) => Promise<ProviderAudio>;

export const PCM: ProviderAudio = { audio: new Uint8Array(480), format: 'pcm', sampleRate: 24_000, warnings: [] };
export const ok: Step = async () => PCM;
/** An HTTP error answer as core/http maps it (the provider's message, when given, read from its body). */
export const upstreamFailure = (status: number, retryAfter: string | null = null, providerMessage?: string) =>
  upstreamError({ provider: 'Scripted', upstreamStatus: status, reading: providerMessage ? { providerMessage } : {}, retryAfterHeader: retryAfter });
export const fail =
  (status: number, retryAfter: string | null = null, providerMessage?: string): Step =>
  async () => {
    throw upstreamFailure(status, retryAfter, providerMessage);
  };
export const unreachable: Step = async () => {
  throw new GatewayError('TTS_ERR_UNAVAILABLE', 'Scripted could not be reached');
};
/** Never answers and ignores its signal: only the decorator can end the wait. */
export const hang: Step = () => new Promise<ProviderAudio>(() => undefined);

/** A provider that plays one scripted step per call (the last one repeats). */
export class ScriptedProvider implements TtsProvider {
  calls = 0;
  constructor(public script: Step[]) {}

  async models(): Promise<readonly ModelInfo[]> {
    return [];
  }

  async voices(): Promise<readonly VoiceInfo[]> {
    return [];
  }

  synthesize(request: ProviderSynthesisRequest): Promise<ProviderAudio> {
    const step = this.script[Math.min(this.calls, this.script.length - 1)];
    this.calls += 1;
    return step(request);
  }
}

/** The policy of these tests: quick backoff, and the breaker off unless a test sets it. */
export const policy = (overrides: Partial<ResiliencePolicy> = {}): ResiliencePolicy => ({
  retries: 2,
  backoffMs: 1,
  maxBackoffMs: 5,
  breaker: { failures: 0, halfOpenAfterMs: 50 },
  ...overrides,
});

/** A provider request of these tests; `overrides` sets a signal, a deadline or another format. */
export const request = (overrides: Partial<ProviderSynthesisRequest> = {}) => providerRequest({ model: 'm', voice: 'v', text: 'Hello.', requestId: 'r-1', format: 'pcm' }, overrides);
