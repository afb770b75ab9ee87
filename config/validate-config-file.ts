import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { ConfigError } from './config-error';
import type { ConfigFile } from './config-file';
import { describeSchemaErrors } from './format-schema-errors';
import { CONFIG_FILE_SCHEMA } from './schema';
import { isOrigin } from './origin';
import { isByteSize, isDuration } from './units';

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (compiled) return compiled;
  // coerceTypes: `port: ${PORT}` interpolates to a string, which must still count as a number.
  // No code optimization: the validator runs once, and optimizing it was a third of its 150 ms compile at start.
  const ajv = new Ajv({ allErrors: true, verbose: true, useDefaults: true, coerceTypes: true, allowUnionTypes: true, code: { optimize: false } });
  addFormats(ajv);
  ajv.addFormat('duration', { type: 'string', validate: isDuration });
  ajv.addFormat('byte-size', { type: 'string', validate: isByteSize });
  ajv.addFormat('origin', { type: 'string', validate: isOrigin });
  ajv.addFormat('cors-any-origin', { type: 'string', validate: (value) => value === '*' });
  compiled = ajv.compile(CONFIG_FILE_SCHEMA);
  return compiled;
}

/**
 * Validates the interpolated file content in place (ajv fills defaults and coerces types),
 * or throws a ConfigError naming each path and what was expected.
 */
export function validateConfigFile(content: Record<string, unknown>, file?: string): ConfigFile {
  const validate = validator();
  if (!validate(content)) {
    throw new ConfigError('Invalid configuration', describeSchemaErrors(validate.errors ?? []), file ?? '(defaults and environment)');
  }
  return content as unknown as ConfigFile;
}
