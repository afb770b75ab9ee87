import { type ProviderSynthesisRequest, type TtsProvider } from '../../../core';
import elevenLabsPlugin, { type ElevenLabsOptions } from '../../../plugins/elevenlabs';
import { pluginTestContext, type LoggedWarning } from '../../support/plugin-test-context';
import { providerRequest } from '../../support/provider-request';

/** A fake key; when re-recording (`NOCK_BACK_MODE=record`), the real one from ELEVENLABS_API_KEY. */
export const TEST_KEY = (process.env.NOCK_BACK_MODE === 'record' && process.env.ELEVENLABS_API_KEY) || 'xi-test-0123456789abcdef0123456789abcdef';
export const RACHEL = '21m00Tcm4TlvDq8ikWAM';

export const baseOptions: ElevenLabsOptions = {
  apiKey: TEST_KEY,
  baseUrl: 'https://api.elevenlabs.io',
  timeoutMs: 30000,
  mp3OutputFormat: 'mp3_44100_128',
  pcmSampleRate: 24000,
  voicePageSize: 100,
};

export async function createProvider(options: Partial<ElevenLabsOptions> = {}, warnings: LoggedWarning[] = []): Promise<TtsProvider> {
  return elevenLabsPlugin.create({ ...baseOptions, ...options }, pluginTestContext('elevenlabs', fetch, warnings));
}

export function synthesisRequest(overrides: Partial<ProviderSynthesisRequest> = {}): ProviderSynthesisRequest {
  return providerRequest({ model: 'eleven_multilingual_v2', voice: RACHEL, text: 'Hello.', requestId: 'test-request-1' }, overrides);
}
