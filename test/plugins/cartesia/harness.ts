import type { ProviderSynthesisRequest, TtsProvider } from '../../../core';
import plugin, { type CartesiaOptions } from '../../../plugins/cartesia';
import { pluginTestContext } from '../../support/plugin-test-context';
import { providerRequest } from '../../support/provider-request';

export const VOICE = 'a0e99841-438c-4a64-b679-ae501e7d6091';

/** A Cartesia provider on the real fetch (nock answers). */
export async function createProvider(options: Partial<CartesiaOptions> = {}): Promise<TtsProvider> {
  const context = pluginTestContext('cartesia-test', fetch);
  return plugin.create({ apiKey: 'sk_car_test0123456789', baseUrl: 'https://api.cartesia.ai', version: '2026-03-01', sampleRate: 44100, timeoutMs: 5000, ...options }, context);
}

export function synthesisRequest(overrides: Partial<ProviderSynthesisRequest> = {}): ProviderSynthesisRequest {
  return providerRequest({ model: 'sonic-3', voice: VOICE, text: 'Hello from Cartesia.', requestId: 'req-1' }, overrides);
}
