import type { ErrorObject } from 'ajv';
import { GatewayError, type ErrorDetail } from '../../core';

interface Described {
  readonly detail: ErrorDetail;
  readonly message: string;
}

const joinField = (path: string, property: unknown): string =>
  [path.replace(/^\//, '').replace(/\//g, '.'), String(property)].filter((part) => part.length > 0).join('.');

/** Writes a bound as the spec does: 2 -> "2.0" for a number field, 200 stays 200 for a length. */
const bound = (value: unknown, decimal: boolean): string =>
  typeof value === 'number' && decimal && Number.isInteger(value) ? value.toFixed(1) : String(value);

const typeName = (type: string): string => (type === 'object' ? 'a JSON object' : `a ${type}`);

function describe(error: ErrorObject): Described {
  const field = joinField(error.instancePath, '');
  const schema = (error.parentSchema ?? {}) as Record<string, unknown>;
  const decimal = schema.type === 'number';
  const name = field || 'Request body';
  switch (error.keyword) {
    case 'required': {
      const missing = joinField(error.instancePath, error.params.missingProperty);
      return { detail: { field: missing, reason: 'required' }, message: `${missing} is required` };
    }
    case 'additionalProperties': {
      const unknown = joinField(error.instancePath, error.params.additionalProperty);
      return { detail: { field: unknown, reason: 'unknown field' }, message: `Unknown field "${unknown}"` };
    }
    case 'type': {
      // One type, or a union (`["string", "object"]`): "a string or a JSON object".
      const types = [error.params.type as string | string[]].flat().map(typeName);
      return { detail: { field: field || undefined, reason: 'type' }, message: `${name} must be ${types.join(' or ')}` };
    }
    case 'minimum':
    case 'maximum':
      if (schema.minimum !== undefined && schema.maximum !== undefined) {
        const range = `between ${bound(schema.minimum, decimal)} and ${bound(schema.maximum, decimal)}`;
        return { detail: { field, reason: error.keyword }, message: `${name} must be ${range}` };
      }
      break;
    case 'minLength':
    case 'maxLength':
      if (schema.minLength !== undefined && schema.maxLength !== undefined) {
        const range = `between ${schema.minLength} and ${schema.maxLength} characters`;
        return { detail: { field, reason: error.keyword }, message: `${name} must be ${range} long` };
      }
      break;
    case 'enum': {
      const allowed = (error.params.allowedValues as unknown[]).map(String).join(', ');
      return { detail: { field, reason: 'enum' }, message: `${name} must be one of: ${allowed}` };
    }
    case 'format':
      return { detail: { field, reason: 'format' }, message: `${name} must be a valid ${error.params.format}` };
  }
  return { detail: { field: field || undefined, reason: error.keyword }, message: `${name} ${error.message ?? 'is invalid'}` };
}

/** One 400 for all of ajv's findings: the first one in the message, each in the details. */
export function validationErrorFrom(errors: readonly ErrorObject[]): GatewayError {
  const described = errors.map(describe);
  const first = described[0]?.message ?? 'Request body is invalid';
  const details = described.map(({ detail }) => (detail.field === undefined ? { reason: detail.reason } : detail));
  return new GatewayError('TTS_ERR_VALIDATION', first, { details });
}
