import type { ProviderSynthesisRequest } from '../../core';

/** What a plugin's tests ask for by default; the format defaults to mp3. */
export type RequestDefaults = Pick<ProviderSynthesisRequest, 'model' | 'voice' | 'text' | 'requestId'> & Partial<ProviderSynthesisRequest>;

/** A synthesis request from a plugin's test defaults, with a fresh (never aborted) signal and `overrides` on top. */
export function providerRequest(defaults: RequestDefaults, overrides: Partial<ProviderSynthesisRequest> = {}): ProviderSynthesisRequest {
  return { format: 'mp3', signal: new AbortController().signal, ...defaults, ...overrides };
}
