import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ProviderSynthesisRequest, type TtsProvider } from '../../../core';
import azurePlugin, { type AzureOptions } from '../../../plugins/azure';
import { fixturesRoot } from '../../support/paths';
import { pluginTestContext } from '../../support/plugin-test-context';
import { providerRequest } from '../../support/provider-request';

/** A fake key on replay; the real one (AZURE_SPEECH_KEY) only when re-recording fixtures. */
export const TEST_KEY =
  process.env.NOCK_BACK_MODE === 'record' && process.env.AZURE_SPEECH_KEY ? process.env.AZURE_SPEECH_KEY : 'azure-test-key-0123456789abcdef0123456789ab';

export const baseOptions: AzureOptions = { region: 'westeurope', apiKey: TEST_KEY, timeoutMs: 30000 };

export async function createProvider(options: Partial<AzureOptions> = {}, fetchFunction: typeof fetch = fetch): Promise<TtsProvider> {
  return azurePlugin.create({ ...baseOptions, ...options }, pluginTestContext('azure', fetchFunction));
}

export function synthesisRequest(overrides: Partial<ProviderSynthesisRequest> = {}): ProviderSynthesisRequest {
  return providerRequest({ model: 'azure-tts', voice: 'en-US-JennyNeural', text: 'Hello.', requestId: 'test-request-1' }, overrides);
}

/** The recorded audio of one synthesis fixture (its response body). */
export function fixtureAudio(scenario: string): Uint8Array {
  const [definition] = JSON.parse(readFileSync(join(fixturesRoot, 'azure', `${scenario}.json`), 'utf8')) as { response: string }[];
  return new Uint8Array(Buffer.from(definition.response, 'hex'));
}
