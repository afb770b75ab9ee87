import type { OptionsFromSchema, OptionsSchema } from '../../core';

/** Options of one Amazon Polly instance; the type below is read off this schema. */
export const pollyOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['region', 'accessKeyId', 'secretAccessKey'],
  properties: {
    // Part of the endpoint and of the signature scope.
    region: { type: 'string', pattern: '^[a-z]{2}(-[a-z]+)+-[0-9]+$', description: 'AWS region, e.g. us-east-1' },
    accessKeyId: { type: 'string', minLength: 1, description: 'usually ${AWS_ACCESS_KEY_ID}' },
    secretAccessKey: { type: 'string', minLength: 1, description: 'usually ${AWS_SECRET_ACCESS_KEY}' },
    // Temporary credentials (STS) come with a session token.
    sessionToken: { type: 'string', minLength: 1, description: 'usually ${AWS_SESSION_TOKEN}, for temporary credentials' },
    baseUrl: { type: 'string', pattern: '^https?://', description: 'default https://polly.{region}.amazonaws.com (amazonaws.com.cn in cn-* regions)' },
    timeoutMs: { type: 'integer', minimum: 1, default: 30_000 },
  },
} as const satisfies OptionsSchema;

/** Options of one Amazon Polly instance, after ajv has applied the defaults. */
export type PollyOptions = OptionsFromSchema<typeof pollyOptionsSchema>;

/** The China regions (cn-north-1, cn-northwest-1) are a separate AWS partition with its own domain. */
const CHINA_REGION = /^cn-/;

export function pollyBaseUrl(options: Pick<PollyOptions, 'region' | 'baseUrl'>): string {
  const domain = CHINA_REGION.test(options.region) ? 'amazonaws.com.cn' : 'amazonaws.com';
  return (options.baseUrl ?? `https://polly.${options.region}.${domain}`).replace(/\/+$/, '');
}
