import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { ConfigError } from './config-error';
import { childPath } from './config-path';
import type { ConfigFile } from './config-file';
import { describeSchemaErrors } from './format-schema-errors';
import { CONFIG_FILE_SCHEMA } from './schema';
import { isOrigin } from './origin';
import { isProxyAddress, isTrustedProxiesText } from './trusted-proxies';
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
  ajv.addFormat('trusted-proxies', { type: 'string', validate: isTrustedProxiesText });
  ajv.addFormat('proxy-address', { type: 'string', validate: isProxyAddress });
  ajv.addFormat('cors-any-origin', { type: 'string', validate: (value) => value === '*' });
  // What `Authorization: Bearer <token>` can carry: visible ASCII, no space.
  ajv.addFormat('bearer-token', { type: 'string', validate: /^[\x21-\x7e]+$/ });
  compiled = ajv.compile(CONFIG_FILE_SCHEMA);
  return compiled;
}

interface SchemaNode {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly additionalProperties?: SchemaNode | boolean;
  readonly items?: SchemaNode;
}

/**
 * Values ajv's coercion would turn into numbers or booleans unseen: an empty YAML value (null)
 * would become 0 (`port:` a random port), `true` 1. Coercion is only for interpolated strings.
 */
function uncoercedProblems(schema: SchemaNode, value: unknown, path: string, problems: { path: string; line: string }[]): void {
  const types = schema.type === undefined ? [] : ([] as string[]).concat(schema.type);
  if (types.length > 0 && ((value === null && !types.includes('null')) || (typeof value === 'boolean' && !types.includes('boolean')))) {
    problems.push({ path, line: `${path || '(top level)'}: must be ${types.join(' or ')} (found ${String(value)})` });
    return;
  }
  if (Array.isArray(value)) {
    if (schema.items) value.forEach((item, index) => uncoercedProblems(schema.items as SchemaNode, item, childPath(path, index), problems));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const child = schema.properties?.[key] ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
      if (child) uncoercedProblems(child, item, childPath(path, key), problems);
    }
  }
}

/**
 * Validates the interpolated file content in place (ajv fills defaults and coerces types),
 * or throws a ConfigError naming each path and what was expected.
 */
export function validateConfigFile(content: Record<string, unknown>, file?: string): ConfigFile {
  const validate = validator();
  const uncoerced: { path: string; line: string }[] = [];
  uncoercedProblems(CONFIG_FILE_SCHEMA as SchemaNode, content, '', uncoerced);
  const valid = validate(content);
  if (!valid || uncoerced.length > 0) {
    // ajv's line for a path already reported would describe the coerced value, not the written one.
    const reported = new Set(uncoerced.map((problem) => `${problem.path || '(top level)'}: `));
    const others = describeSchemaErrors(validate.errors ?? []).filter((line) => ![...reported].some((prefix) => line.startsWith(prefix)));
    throw new ConfigError('Invalid configuration', [...uncoerced.map((problem) => problem.line), ...others], file ?? '(defaults and environment)');
  }
  return content as unknown as ConfigFile;
}
