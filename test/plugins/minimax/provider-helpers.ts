import type { ProviderSynthesisRequest, TtsProvider } from '../../../core';
import plugin, { type MiniMaxOptions } from '../../../plugins/minimax';
import { pluginTestContext, type LoggedWarning } from '../../support/plugin-test-context';
import { providerRequest } from '../../support/provider-request';

/** A MiniMax provider on the real fetch (nock answers), with its warnings captured. */
export async function createMiniMax(options: Partial<MiniMaxOptions> = {}): Promise<{ provider: TtsProvider; warnings: LoggedWarning[] }> {
  const warnings: LoggedWarning[] = [];
  const context = pluginTestContext('minimax-test', fetch, warnings);
  const provider = await plugin.create({ apiKey: 'mm-test-key-0123456789', baseUrl: 'https://api.minimax.io', sampleRate: 32000, timeoutMs: 5000, ...options }, context);
  return { provider, warnings };
}

export function synthesisRequest(overrides: Partial<ProviderSynthesisRequest> = {}): ProviderSynthesisRequest {
  return providerRequest({ model: 'speech-2.8-hd', voice: 'English_Graceful_Lady', text: 'Hello from MiniMax.', requestId: 'req-1' }, overrides);
}
