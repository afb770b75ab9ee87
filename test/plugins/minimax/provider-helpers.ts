import type { PluginContext, ProviderSynthesisRequest, TtsProvider } from '../../../core';
import plugin, { type MiniMaxOptions } from '../../../plugins/minimax';

export interface LoggedWarning {
  readonly message: string;
  readonly meta?: Record<string, unknown>;
}

/** A MiniMax provider on the real fetch (nock answers), with its warnings captured. */
export async function createMiniMax(options: Partial<MiniMaxOptions> = {}): Promise<{ provider: TtsProvider; warnings: LoggedWarning[] }> {
  const warnings: LoggedWarning[] = [];
  const quiet = () => undefined;
  const context: PluginContext = {
    instanceId: 'minimax-test',
    logger: { debug: quiet, info: quiet, error: quiet, warn: (message, meta) => warnings.push({ message, meta }) },
    fetch,
    signal: new AbortController().signal,
  };
  const provider = await plugin.create({ apiKey: 'mm-test-key-0123456789', baseUrl: 'https://api.minimax.io', sampleRate: 32000, timeoutMs: 5000, ...options }, context);
  return { provider, warnings };
}

export function synthesisRequest(overrides: Partial<ProviderSynthesisRequest> = {}): ProviderSynthesisRequest {
  return {
    model: 'speech-2.8-hd',
    voice: 'English_Graceful_Lady',
    text: 'Hello from MiniMax.',
    format: 'mp3',
    signal: new AbortController().signal,
    requestId: 'req-1',
    ...overrides,
  };
}
