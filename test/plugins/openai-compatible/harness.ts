import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AudioFormat, type ProviderSynthesisRequest, type TtsProvider } from '../../../core';
import compatiblePlugin, { type OpenAiCompatibleOptions } from '../../../plugins/openai-compatible';
import { fixturesRoot } from '../../support/paths';
import { pluginTestContext } from '../../support/plugin-test-context';
import { providerRequest } from '../../support/provider-request';

export const KOKORO_URL = 'http://kokoro.test:8880';
export const LOCALAI_URL = 'http://localai.test:8080';
export const TEST_KEY = 'sk-local-0123456789abcdef0123456789abcdef';

/** The options as ajv leaves them after applying the schema's defaults. */
export const kokoroOptions: OpenAiCompatibleOptions = {
  baseUrl: KOKORO_URL,
  timeoutMs: 30000,
  modelPattern: 'tts|speech|kokoro|piper|voice',
  voiceLanguage: 'en',
  formats: ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'],
  pcmSampleRate: 24000,
  nativeSpeed: true,
  speedRange: { min: 0.25, max: 4 },
  maxInputChars: 4096,
};

export async function createProvider(options: Partial<OpenAiCompatibleOptions> = {}, instanceId = 'kokoro'): Promise<TtsProvider> {
  return compatiblePlugin.create({ ...kokoroOptions, ...options }, pluginTestContext(instanceId, fetch));
}

export function synthesisRequest(overrides: Partial<ProviderSynthesisRequest> = {}): ProviderSynthesisRequest {
  return providerRequest({ model: 'kokoro', voice: 'af_bella', text: 'Hello.', requestId: 'test-request-1' }, overrides);
}

/** Real speech per format, from test/fixtures/openai-compatible/conformance-audio.json. */
export function conformanceAudio(): Record<AudioFormat, Uint8Array> {
  const parsed = JSON.parse(readFileSync(join(fixturesRoot, 'openai-compatible', 'conformance-audio.json'), 'utf8')) as { formats: Record<AudioFormat, string> };
  return Object.fromEntries(Object.entries(parsed.formats).map(([format, hex]) => [format, new Uint8Array(Buffer.from(hex, 'hex'))])) as unknown as Record<AudioFormat, Uint8Array>;
}
