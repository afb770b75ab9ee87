import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { describeSchemaErrors } from '../../config/format-schema-errors';
import type { JsonSchema } from './contract';
import { PluginLoadError } from './plugin-load-error';

/**
 * Drops object keys whose value is null, at every depth: an option left empty in YAML
 * (`organization:`) means "not given", so a default or a "missing required key" applies, and a
 * schema's `nullable: true` (needed on optional options for ajv's typed schemas) never lets a
 * null through to a plugin.
 */
function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== null).map(([key, entry]) => [key, dropNulls(entry)]));
}

/**
 * Validates one instance's options against its plugin's schema, filling defaults. Works on a
 * copy: the configuration is frozen, and one plugin's defaults must not leak into another
 * instance's options. Options set to null count as not given.
 */
export function validatePluginOptions(
  schema: JsonSchema,
  options: Readonly<Record<string, unknown>> | undefined,
  where: { describe: string; configPath: string },
): Record<string, unknown> {
  // A new Ajv per plugin: two plugins may reuse one `$id`; strict off so plugins may annotate.
  // No code optimization: each validator runs once per instance, at start.
  const ajv = new Ajv({ allErrors: true, verbose: true, useDefaults: true, coerceTypes: true, strict: false, code: { optimize: false } });
  addFormats(ajv);
  let validate;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    throw new PluginLoadError('TTS_PLUGIN_BAD_SHAPE', { plugin: where.describe, configPath: where.configPath, problem: `its optionsSchema is not a valid JSON Schema: ${(error as Error).message}` }, {
      configPath: where.configPath,
    });
  }
  const copy = dropNulls(structuredClone({ ...(options ?? {}) })) as Record<string, unknown>;
  if (!validate(copy)) {
    const lines = describeSchemaErrors(validate.errors ?? [], `${where.configPath}.options`);
    throw new PluginLoadError('TTS_PLUGIN_INVALID_OPTIONS', { provider: where.describe, configPath: where.configPath, problems: lines.map((line) => `  - ${line}`).join('\n') }, {
      configPath: where.configPath,
    });
  }
  return copy;
}
