import type { OptionsFromSchema, OptionsSchema } from '../../core';

/** Options of one Azure Speech instance; the type below is read off this schema. */
export const azureOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['apiKey'],
  anyOf: [{ required: ['region'] }, { required: ['baseUrl'] }],
  properties: {
    // Azure region of the Speech resource, for example `westeurope`.
    region: { type: 'string', pattern: '^[a-z0-9]+$', description: 'Azure region of the Speech resource, e.g. westeurope' },
    // The Speech resource key (sent as `Ocp-Apim-Subscription-Key`).
    apiKey: { type: 'string', minLength: 1, description: 'Speech resource key' },
    baseUrl: { type: 'string', pattern: '^https?://', description: 'Default: https://{region}.tts.speech.microsoft.com' },
    // Whole-call deadline per upstream request, in milliseconds.
    timeoutMs: { type: 'integer', minimum: 1, default: 30000 },
  },
} as const satisfies OptionsSchema;

/** Options of one Azure Speech instance, after ajv has applied the defaults. */
export type AzureOptions = OptionsFromSchema<typeof azureOptionsSchema>;

/** The endpoint root for these options, without a trailing slash. */
export function azureBaseUrl(options: AzureOptions): string {
  const base = options.baseUrl ?? `https://${options.region}.tts.speech.microsoft.com`;
  return base.replace(/\/+$/, '');
}
