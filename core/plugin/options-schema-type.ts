import type { JSONSchemaType } from 'ajv';

/**
 * The JSON Schema of a plugin's options, checked by TypeScript against the options type (ajv's
 * `JSONSchemaType`), so the schema and the type cannot drift apart. The type is the options as
 * `create()` receives them, defaults filled in. An optional option needs `nullable: true` (ajv's
 * rule for optional properties); the loader drops options set to null, so null means "not given".
 */
export type OptionsSchema<Options> = JSONSchemaType<Options>;
