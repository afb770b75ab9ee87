import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

/**
 * The JSON Schema of a plugin's options. Write it `as const satisfies OptionsSchema` and read the
 * options type off it with `OptionsFromSchema`, so the schema and the type cannot drift apart.
 */
export type OptionsSchema = Exclude<JSONSchema, boolean> & { readonly type: 'object' };

/**
 * The options as `create()` receives them: a property with a `default` is always there (ajv
 * fills it in), other properties not in `required` may be absent. The loader drops options set
 * to null before validating, so null means "not given" and never reaches a plugin.
 */
export type OptionsFromSchema<Schema extends OptionsSchema> = FromSchema<Schema>;
