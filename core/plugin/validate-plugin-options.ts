import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { describeSchemaErrors } from '../../config/format-schema-errors';
import type { JsonSchema } from './contract';
import { PluginLoadError } from './plugin-load-error';

/**
 * Validates one instance's options against its plugin's schema, filling defaults. Works on a
 * copy: the configuration is frozen, and one plugin's defaults must not leak into another
 * instance's options.
 */
export function validatePluginOptions(
  schema: JsonSchema,
  options: Readonly<Record<string, unknown>> | undefined,
  where: { describe: string; configPath: string },
): Record<string, unknown> {
  // A new Ajv per plugin: two plugins may reuse one `$id`; strict off so plugins may annotate.
  const ajv = new Ajv({ allErrors: true, verbose: true, useDefaults: true, coerceTypes: true, strict: false });
  addFormats(ajv);
  let validate;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    throw new PluginLoadError('TTS_PLUGIN_BAD_SHAPE', { plugin: where.describe, configPath: where.configPath, problem: `its optionsSchema is not a valid JSON Schema: ${(error as Error).message}` }, {
      configPath: where.configPath,
    });
  }
  const copy: Record<string, unknown> = structuredClone({ ...(options ?? {}) });
  if (!validate(copy)) {
    const lines = describeSchemaErrors(validate.errors ?? [], `${where.configPath}.options`);
    throw new PluginLoadError('TTS_PLUGIN_INVALID_OPTIONS', { provider: where.describe, configPath: where.configPath, problems: lines.map((line) => `  - ${line}`).join('\n') }, {
      configPath: where.configPath,
    });
  }
  return copy;
}
