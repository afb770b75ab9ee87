import type { OptionsSchema } from '../../core';

/** Options of one Azure Speech instance, after ajv has applied the defaults. */
export interface AzureOptions {
  /** Azure region of the Speech resource, for example `westeurope`. */
  readonly region?: string;
  /** The Speech resource key (sent as `Ocp-Apim-Subscription-Key`). */
  readonly apiKey: string;
  /** Endpoint root; default `https://{region}.tts.speech.microsoft.com`. */
  readonly baseUrl?: string;
  /** Whole-call deadline per upstream request, in milliseconds. */
  readonly timeoutMs: number;
}

export const azureOptionsSchema: OptionsSchema<AzureOptions> = {
  type: 'object',
  additionalProperties: false,
  required: ['apiKey'],
  anyOf: [{ required: ['region'] }, { required: ['baseUrl'] }],
  properties: {
    region: { nullable: true, type: 'string', pattern: '^[a-z0-9]+$', description: 'Azure region of the Speech resource, e.g. westeurope' },
    apiKey: { type: 'string', minLength: 1, description: 'Speech resource key' },
    baseUrl: { nullable: true, type: 'string', pattern: '^https?://', description: 'Default: https://{region}.tts.speech.microsoft.com' },
    timeoutMs: { type: 'integer', minimum: 1, default: 30000 },
  },
};

/** The endpoint root for these options, without a trailing slash. */
export function azureBaseUrl(options: AzureOptions): string {
  const base = options.baseUrl ?? `https://${options.region}.tts.speech.microsoft.com`;
  return base.replace(/\/+$/, '');
}
