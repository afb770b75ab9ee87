import type { ProviderSynthesisRequest, TtsProvider } from '../../../core';
import google, { type GoogleOptions } from '../../../plugins/google';
import { pluginTestContext } from '../../support/plugin-test-context';
import { providerRequest } from '../../support/provider-request';

/** A real key only when re-recording (NOCK_BACK_MODE=record); a placeholder otherwise. */
export const TEST_KEY = process.env.GOOGLE_TTS_API_KEY ?? 'AIzaSyTestKey-0123456789abcdefghijklmn';

/** A Google provider on the real global fetch (nock answers it), as the gateway would build it. */
export async function createProvider(options: Partial<GoogleOptions> = {}): Promise<TtsProvider> {
  const context = pluginTestContext('google', (input, init) => fetch(input, init));
  return google.create({ apiKey: TEST_KEY, baseUrl: 'https://texttospeech.googleapis.com', timeoutMs: 5000, ...options }, context);
}

export function synthesisRequest(overrides: Partial<ProviderSynthesisRequest>): ProviderSynthesisRequest {
  return providerRequest({ model: 'google-standard', voice: 'en-US-Standard-C', text: 'Hello.', requestId: 'test-request' }, overrides);
}
