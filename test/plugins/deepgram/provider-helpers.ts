import type { ProviderSynthesisRequest, TtsProvider } from '../../../core';
import plugin, { type DeepgramOptions } from '../../../plugins/deepgram';
import { pluginTestContext, type LoggedWarning } from '../../support/plugin-test-context';
import { providerRequest } from '../../support/provider-request';

/** A Deepgram provider on the real fetch (nock answers), with its logged warnings captured. */
export async function createDeepgram(options: Partial<DeepgramOptions> = {}): Promise<{ provider: TtsProvider; warnings: LoggedWarning[] }> {
  const warnings: LoggedWarning[] = [];
  const context = pluginTestContext('deepgram-test', fetch, warnings);
  const provider = await plugin.create({ apiKey: 'dg-test-key-0123456789', baseUrl: 'https://api.deepgram.com', timeoutMs: 5000, ...options }, context);
  return { provider, warnings };
}

export function synthesisRequest(overrides: Partial<ProviderSynthesisRequest> = {}): ProviderSynthesisRequest {
  return providerRequest({ model: 'aura-2', voice: 'aura-2-thalia-en', text: 'Hello from Deepgram.', requestId: 'req-1' }, overrides);
}
