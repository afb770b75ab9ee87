/** Builds real espeak providers (WASM engine in worker threads) for the plugin's tests. */
import type { AudioFormat, PluginContext, ProviderSynthesisRequest, TtsProvider } from '../../../core';
import espeakPlugin, { type EspeakOptions } from '../../../plugins/espeak';
import { pluginTestContext } from '../../support/plugin-test-context';
import { providerRequest } from '../../support/provider-request';

/** About six seconds of English speech: long enough for stable duration, level and F0 measures. */
export const SAMPLE_TEXT =
  'The quick brown fox jumps over the lazy dog. She sells sea shells by the sea shore, and the shells she sells are surely seashells.';

/** About two minutes of speech: one full-size chunk (the model's maxInputChars). */
export const LONG_TEXT = 'The quick brown fox jumps over the lazy dog, while the cat sleeps in the warm sun. '.repeat(30).slice(0, 2000);

export function quietContext(): PluginContext {
  return pluginTestContext('espeak', () => Promise.reject(new Error('the espeak plugin must not use the network')));
}

export async function createProvider(options: EspeakOptions = { workers: 2 }): Promise<TtsProvider> {
  const provider = await espeakPlugin.create(options, quietContext());
  await provider.warmUp?.();
  return provider;
}

export function synthesisRequest(
  overrides: Partial<Omit<ProviderSynthesisRequest, 'format'>> & { format?: AudioFormat } = {},
): ProviderSynthesisRequest {
  return providerRequest({ model: 'espeak-ng', voice: 'en-us', text: SAMPLE_TEXT, format: 'wav', requestId: 'espeak-test' }, overrides);
}
