import type { CONFIG_FILE_SCHEMA } from './schema';
import type { GatewayConfig } from './types';

/**
 * GatewayConfig is the file after unit conversion and a few renames, so it is written by hand
 * (with its docs); this file makes the compiler check it against the schema both ways, field by
 * field at every depth. A field added to the schema without GatewayConfig following, or a
 * GatewayConfig field with no schema field behind it, fails the build with the field's path.
 * The value types are checked by normalize-config.ts, which reads the file type read off the schema.
 */

/** Fields GatewayConfig keeps under another name than the unit rule below gives. */
interface RenamedFields {
  'storage.s3.accessKeyId': 'credentials';
  'storage.s3.secretAccessKey': 'credentials';
}

/** GatewayConfig fields no file field gives: the loader works them out. */
type DerivedFields = 'sourceFile' | 'baseDirectory' | 'skippedProviders' | 'providers.configPath';

type Join<Path extends string, Key extends string> = Path extends '' ? Key : `${Path}.${Key}`;

/** A file field's name in GatewayConfig: durations gain `Ms`, sizes `Bytes` (unless they end so). */
type ConfigKey<Path extends string, Key extends string, Field> = Path extends keyof RenamedFields
  ? RenamedFields[Path]
  : Field extends { readonly format: 'duration' }
    ? `${Key}Ms`
    : Field extends { readonly format: 'byte-size' }
      ? Key extends `${string}Bytes`
        ? Key
        : `${Key}Bytes`
      : Key;

/** The object schema inside a field (a list's items), or never. */
type ObjectSchemaOf<Field> = Field extends { readonly properties: object } ? Field : Field extends { readonly items: infer Items } ? ObjectSchemaOf<Items> : never;

/** The object inside a config value (a list's element, an optional's value). */
type ObjectOf<Value> = NonNullable<Value> extends readonly (infer Item)[] ? NonNullable<Item> : NonNullable<Value>;

type PropertiesOf<Node> = Node extends { readonly properties: infer Properties } ? Properties : {};

type ConfigKeysOf<Node, Path extends string> = {
  [Key in keyof PropertiesOf<Node> & string]: ConfigKey<Join<Path, Key>, Key, PropertiesOf<Node>[Key]>;
}[keyof PropertiesOf<Node> & string];

/** Schema fields that GatewayConfig lacks, at this level and below. */
type MissingFields<Node, Config, Path extends string> = {
  [Key in keyof PropertiesOf<Node> & string]: ConfigKey<Join<Path, Key>, Key, PropertiesOf<Node>[Key]> extends infer Name
    ? Name extends keyof Config
      ? SchemaMismatches<ObjectSchemaOf<PropertiesOf<Node>[Key]>, ObjectOf<Config[Name]>, Join<Path, Key>>
      : `schema field ${Join<Path, Key>} has no GatewayConfig field ${Name & string}`
    : never;
}[keyof PropertiesOf<Node> & string];

/** GatewayConfig fields that no schema field gives and that are not derived. */
type ExtraFields<Node, Config, Path extends string> = {
  [Key in keyof Config & string]: Key extends ConfigKeysOf<Node, Path> ? never : Join<Path, Key> extends DerivedFields ? never : `GatewayConfig field ${Join<Path, Key>} has no schema field`;
}[keyof Config & string];

/** Every disagreement between an object schema and its config type, as messages; never when none. */
export type SchemaMismatches<Node, Config, Path extends string = ''> = [Node] extends [never]
  ? never
  : MissingFields<Node, Config, Path> | ExtraFields<Node, Config, Path>;

/** True when there is no mismatch, else the mismatches themselves (which are not `true`). */
export type NoMismatch<Mismatches> = [Mismatches] extends [never] ? true : { [Message in Mismatches & string]: Message }[Mismatches & string];

/** What GatewayConfig and the schema disagree on (never, or the build fails below). */
export type GatewayConfigMismatches = SchemaMismatches<typeof CONFIG_FILE_SCHEMA, GatewayConfig>;

// The check itself: `npm run build` fails here, naming each field, when they disagree.
export const GATEWAY_CONFIG_FOLLOWS_SCHEMA: NoMismatch<GatewayConfigMismatches> = true;
