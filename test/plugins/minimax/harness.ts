import type { ProviderSynthesisRequest, TtsProvider } from '../../../core';
import plugin, { type MiniMaxOptions } from '../../../plugins/minimax';
import { pluginTestContext, type LoggedWarning } from '../../support/plugin-test-context';
import { providerRequest } from '../../support/provider-request';

export const TEST_KEY = 'mm-test-key-0123456789';

/** A MiniMax provider on the real fetch (nock answers); its logged warnings go to `warnings`. */
export async function createProvider(options: Partial<MiniMaxOptions> = {}, warnings: LoggedWarning[] = []): Promise<TtsProvider> {
  const context = pluginTestContext('minimax-test', fetch, warnings);
  return plugin.create({ apiKey: TEST_KEY, baseUrl: 'https://api.minimax.io', sampleRate: 32000, timeoutMs: 5000, ...options }, context);
}

export function synthesisRequest(overrides: Partial<ProviderSynthesisRequest> = {}): ProviderSynthesisRequest {
  return providerRequest({ model: 'speech-2.8-hd', voice: 'English_Graceful_Lady', text: 'Hello from MiniMax.', requestId: 'req-1' }, overrides);
}
