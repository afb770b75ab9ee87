import type { JsonSchema } from '../../core';

/** Options of one Amazon Polly instance (validated by the schema below). */
export interface PollyOptions {
  /** AWS region, for example `us-east-1`; part of the endpoint and of the signature scope. */
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** Temporary credentials (STS) come with a session token. */
  readonly sessionToken?: string;
  /** Defaults to `https://polly.{region}.amazonaws.com`. */
  readonly baseUrl?: string;
  readonly timeoutMs: number;
}

export function pollyBaseUrl(options: PollyOptions): string {
  return (options.baseUrl ?? `https://polly.${options.region}.amazonaws.com`).replace(/\/+$/, '');
}

export const pollyOptionsSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['region', 'accessKeyId', 'secretAccessKey'],
  properties: {
    region: { type: 'string', pattern: '^[a-z]{2}(-[a-z]+)+-[0-9]+$', description: 'AWS region, e.g. us-east-1' },
    accessKeyId: { type: 'string', minLength: 1, description: 'usually ${AWS_ACCESS_KEY_ID}' },
    secretAccessKey: { type: 'string', minLength: 1, description: 'usually ${AWS_SECRET_ACCESS_KEY}' },
    sessionToken: { type: 'string', minLength: 1, description: 'usually ${AWS_SESSION_TOKEN}, for temporary credentials' },
    baseUrl: { type: 'string', pattern: '^https?://', description: 'default https://polly.{region}.amazonaws.com' },
    timeoutMs: { type: 'integer', minimum: 1, default: 30_000 },
  },
};
