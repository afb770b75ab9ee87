import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AudioFormat, type ProviderSynthesisRequest, type TtsProvider } from '../../../core';
import openAiPlugin, { type OpenAiOptions } from '../../../plugins/openai';
import { fixturesRoot } from '../../support/paths';
import { pluginTestContext } from '../../support/plugin-test-context';
import { providerRequest } from '../../support/provider-request';

/** A fake key; when re-recording (`NOCK_BACK_MODE=record`), the real one from OPENAI_API_KEY. */
export const TEST_KEY = (process.env.NOCK_BACK_MODE === 'record' && process.env.OPENAI_API_KEY) || 'sk-test-openai-0123456789abcdef0123456789abcdef';

export const baseOptions: OpenAiOptions = { apiKey: TEST_KEY, baseUrl: 'https://api.openai.com', timeoutMs: 30000 };

export async function createProvider(options: Partial<OpenAiOptions> = {}, fetchFunction: typeof fetch = fetch): Promise<TtsProvider> {
  return openAiPlugin.create({ ...baseOptions, ...options }, pluginTestContext('openai', fetchFunction));
}

export function synthesisRequest(overrides: Partial<ProviderSynthesisRequest> = {}): ProviderSynthesisRequest {
  return providerRequest({ model: 'tts-1', voice: 'alloy', text: 'Hello.', requestId: 'test-request-1' }, overrides);
}

/** Real speech per format, from test/fixtures/openai/conformance-audio.json. */
export function conformanceAudio(): Record<AudioFormat, Uint8Array> {
  const parsed = JSON.parse(readFileSync(join(fixturesRoot, 'openai', 'conformance-audio.json'), 'utf8')) as { formats: Record<AudioFormat, string> };
  return Object.fromEntries(Object.entries(parsed.formats).map(([format, hex]) => [format, new Uint8Array(Buffer.from(hex, 'hex'))])) as unknown as Record<AudioFormat, Uint8Array>;
}
