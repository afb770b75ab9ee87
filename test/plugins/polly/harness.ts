import type { ProviderSynthesisRequest, TtsProvider } from '../../../core';
import polly, { type PollyOptions } from '../../../plugins/polly';
import { pluginTestContext } from '../../support/plugin-test-context';
import { providerRequest } from '../../support/provider-request';

/** AWS's documented example credentials: never valid anywhere. */
export const TEST_CREDENTIALS = {
  accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? 'AKIDEXAMPLE',
  secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
};

export async function createProvider(options: Partial<PollyOptions> = {}): Promise<TtsProvider> {
  const context = pluginTestContext('polly', (input, init) => fetch(input, init));
  return polly.create({ region: 'us-east-1', ...TEST_CREDENTIALS, timeoutMs: 5000, ...options }, context);
}

export function synthesisRequest(overrides: Partial<ProviderSynthesisRequest>): ProviderSynthesisRequest {
  return providerRequest({ model: 'polly-neural', voice: 'Joanna', text: 'Hello.', requestId: 'test-request' }, overrides);
}

const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([a-z0-9-]+)\/polly\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/;

/** The parts of a SigV4 Authorization header; throws when it does not have the SigV4 shape. */
export function parseAuthorization(header: string | undefined): { accessKeyId: string; date: string; region: string; signedHeaders: string[]; signature: string } {
  const match = AUTHORIZATION.exec(header ?? '');
  if (!match) throw new Error(`not a SigV4 Authorization header: ${header}`);
  return { accessKeyId: match[1], date: match[2], region: match[3], signedHeaders: match[4].split(';'), signature: match[5] };
}
