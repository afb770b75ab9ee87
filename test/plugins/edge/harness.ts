import { type ProviderSynthesisRequest, type TtsProvider } from '../../../core';
import edgePlugin, { type EdgeOptions } from '../../../plugins/edge';
import { pluginTestContext } from '../../support/plugin-test-context';
import { providerRequest } from '../../support/provider-request';
import type { EdgeStandIn } from './stand-in';

export function optionsFor(standIn: EdgeStandIn, overrides: Partial<EdgeOptions> = {}): EdgeOptions {
  return {
    baseUrl: standIn.socketUrl,
    voicesUrl: standIn.voicesUrl,
    timeoutMs: 5000,
    clientVersion: '143.0.3650.96',
    trustedClientToken: '6A5AA1D4EAFF4E9FB37E23D68491D6F4',
    ...overrides,
  };
}

export async function createProvider(standIn: EdgeStandIn, overrides: Partial<EdgeOptions> = {}): Promise<TtsProvider> {
  return edgePlugin.create(optionsFor(standIn, overrides), pluginTestContext('edge', fetch));
}

export function synthesisRequest(overrides: Partial<ProviderSynthesisRequest> = {}): ProviderSynthesisRequest {
  return providerRequest({ model: 'edge-tts', voice: 'en-US-AriaNeural', text: 'Hello from Edge.', requestId: 'test-1' }, overrides);
}

/** Splits a protocol text frame into its header lines and body. */
export function splitFrame(text: string): { headers: Record<string, string>; body: string } {
  const [head, ...rest] = text.split('\r\n\r\n');
  const headers = Object.fromEntries(head.split('\r\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1)]));
  return { headers, body: rest.join('\r\n\r\n') };
}
