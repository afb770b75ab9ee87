import type { ProviderSynthesisRequest, TtsProvider } from '../../../core';
import plugin, { type DeepgramOptions } from '../../../plugins/deepgram';
import { pluginTestContext, type LoggedWarning } from '../../support/plugin-test-context';
import { providerRequest } from '../../support/provider-request';

export const TEST_KEY = 'dg-test-key-0123456789';

/** A Deepgram provider on the real fetch (nock answers); its logged warnings go to `warnings`. */
export async function createProvider(options: Partial<DeepgramOptions> = {}, warnings: LoggedWarning[] = []): Promise<TtsProvider> {
  const context = pluginTestContext('deepgram-test', fetch, warnings);
  return plugin.create({ apiKey: TEST_KEY, baseUrl: 'https://api.deepgram.com', timeoutMs: 5000, ...options }, context);
}

export function synthesisRequest(overrides: Partial<ProviderSynthesisRequest> = {}): ProviderSynthesisRequest {
  return providerRequest({ model: 'aura-2', voice: 'aura-2-thalia-en', text: 'Hello from Deepgram.', requestId: 'req-1' }, overrides);
}
