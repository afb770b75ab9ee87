import Ajv from 'ajv';
import addFormats from 'ajv-formats';

/**
 * One ajv for request bodies: every error reported, defaults filled in, no type coercion
 * (a string "1.5" is not a number), `verbose` so messages can quote a field's bounds.
 */
export function createRequestAjv(): Ajv {
  // Union types: `/v1`'s voice is a name or `{ "id": ... }`.
  const ajv = new Ajv({ allErrors: true, useDefaults: true, coerceTypes: false, strict: true, verbose: true, allowUnionTypes: true });
  addFormats(ajv, ['email']);
  return ajv;
}
