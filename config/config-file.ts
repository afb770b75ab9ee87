import type { FromSchema } from 'json-schema-to-ts';
import type { CONFIG_FILE_SCHEMA } from './schema';

/**
 * The configuration file's shape after schema validation (defaults filled, units still as
 * written), read off the schema itself: a field added to, removed from or retyped in the schema
 * changes this type, and code that reads the file stops compiling until it follows.
 */

type FileOptions = {
  // The `cors-any-origin` format admits only `*` (validate-config-file.ts).
  deserialize: [{ pattern: { type: 'string'; format: 'cors-any-origin' }; output: '*' }];
};

export type ConfigFile = FromSchema<typeof CONFIG_FILE_SCHEMA, FileOptions>;

export type ProviderEntryFile = ConfigFile['providers'][number];
/** A provider's own retry and breaker settings; absent fields inherit `resilience:`. */
export type ResiliencePolicyFile = NonNullable<ProviderEntryFile['resilience']>;
export type LimitValuesFile = ConfigFile['limits']['perKey'];
export type S3StorageFile = NonNullable<ConfigFile['storage']['s3']>;
