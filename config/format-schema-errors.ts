import type { ErrorObject } from 'ajv';
import { pointerToPath } from './config-path';

/**
 * Turns ajv errors (compiled with `allErrors` and `verbose`) into one line per problem, each
 * naming the path and what was expected: `server.port: must be integer <= 65535 (found 70000)`.
 * String values are never echoed back: a misplaced API key must not end up in a log.
 */

const FORMAT_EXPECTATIONS: Readonly<Record<string, string>> = {
  duration: 'a duration such as 500ms, 30s, 10m, 24h or 7d (a bare number is milliseconds)',
  'byte-size': 'a size such as 512b, 256kb or 1mb (a bare number is bytes)',
  uri: 'an absolute URL',
  url: 'an absolute URL',
  email: 'an email address',
  origin: 'an origin such as https://app.example.com (scheme, host and optional port; no path, no trailing slash)',
  'trusted-proxies': 'the number of proxies in front of the gateway (1), their addresses or ranges (10.0.0.1, 10.0.0.0/8, loopback), true or false',
  'proxy-address': 'a proxy\'s address or range (10.0.0.1, 10.0.0.0/8, fd00::/8, loopback)',
  'cors-any-origin': '"*" (any origin) or a list of origins',
  'bearer-token': 'a token of visible characters without spaces (it is sent as `Authorization: Bearer <token>`)',
};

const COMPARISONS: Readonly<Record<string, string>> = {
  maximum: '<=',
  minimum: '>=',
  exclusiveMaximum: '<',
  exclusiveMinimum: '>',
};

function describeKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  return `${typeof value} ${JSON.stringify(value)}`;
}

function found(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return ` (found ${JSON.stringify(value)})`;
  return '';
}

function schemaType(error: ErrorObject): string | undefined {
  const type = (error.parentSchema as { type?: unknown } | undefined)?.type;
  return typeof type === 'string' ? type : undefined;
}

function allowedKeys(error: ErrorObject): string {
  const properties = (error.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
  const names = properties ? Object.keys(properties) : [];
  return names.length > 0 ? ` (allowed: ${names.join(', ')})` : '';
}

function describeOne(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return `unknown key "${String(params.additionalProperty)}"${allowedKeys(error)}`;
    case 'required':
      return `missing required key "${String(params.missingProperty)}"`;
    case 'type':
      return `must be ${String(params.type).split(',').join(' or ')} (found ${describeKind(error.data)})`;
    case 'enum':
      return `must be one of: ${(params.allowedValues as unknown[]).map((value) => String(value)).join(', ')}${found(error.data)}`;
    case 'format':
      return `must be ${FORMAT_EXPECTATIONS[String(params.format)] ?? `in the format "${String(params.format)}"`}${found(error.data)}`;
    case 'maximum':
    case 'minimum':
    case 'exclusiveMaximum':
    case 'exclusiveMinimum': {
      const type = schemaType(error);
      return `must be ${type ? `${type} ` : ''}${COMPARISONS[error.keyword]} ${String(params.limit)}${found(error.data)}`;
    }
    default:
      return `${error.message ?? 'is invalid'}${found(error.data)}`;
  }
}

/** One readable line per error; `prefix` places the paths inside a larger document. */
export function describeSchemaErrors(errors: readonly ErrorObject[], prefix = ''): string[] {
  const lines = errors
    // anyOf/oneOf summaries repeat what their branches already said.
    .filter((error) => error.keyword !== 'anyOf' && error.keyword !== 'oneOf')
    .map((error) => `${pointerToPath(error.instancePath, prefix) || '(top level)'}: ${describeOne(error)}`);
  return [...new Set(lines)];
}
