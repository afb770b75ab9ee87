import { expect } from 'chai';
import { CONFIG_FILE_SCHEMA, loadConfig, type GatewayConfig } from '../../config';
import type { ConfigFile } from '../../config/config-file';
import { GATEWAY_CONFIG_FOLLOWS_SCHEMA, type NoMismatch, type SchemaMismatches } from '../../config/schema-coverage';
import { TempDirectory } from './config-test-helpers';

/** The schema with one more field in `server`, as someone might add it. */
type SchemaWithNewField = typeof CONFIG_FILE_SCHEMA & {
  readonly properties: { readonly server: { readonly properties: { readonly idleTimeout: { readonly type: 'string'; readonly format: 'duration'; readonly default: '5s' } } } };
};

/** GatewayConfig with a field that no schema field gives. */
type ConfigWithStrayField = GatewayConfig & { readonly server: { readonly idleTimeoutMs: number } };

describe('config: types read off the schema', () => {
  it('fails the build when the schema and GatewayConfig disagree, either way', () => {
    // Each `@ts-expect-error` line is a compile error; `npm run build` fails if TypeScript accepts one.
    // @ts-expect-error: `server.idleTimeout` is in the schema, GatewayConfig has no `idleTimeoutMs`
    const newField: NoMismatch<SchemaMismatches<SchemaWithNewField, GatewayConfig>> = true;
    // @ts-expect-error: GatewayConfig's `server.idleTimeoutMs` has no schema field behind it
    const strayField: NoMismatch<SchemaMismatches<typeof CONFIG_FILE_SCHEMA, ConfigWithStrayField>> = true;
    // Both sides with the field: no mismatch.
    const bothSides: NoMismatch<SchemaMismatches<SchemaWithNewField, ConfigWithStrayField>> = true;
    expect([newField, strayField, bothSides, GATEWAY_CONFIG_FOLLOWS_SCHEMA]).to.deep.equal([true, true, true, true]);
  });

  it('types the file as the schema says (enums, units, defaults filled)', () => {
    // @ts-expect-error: `logging.level` is an enum of the schema
    const level: ConfigFile['logging']['level'] = 'trace';
    // @ts-expect-error: a section with defaults is always there after validation
    const server: ConfigFile['server'] = {};
    const retention: ConfigFile['storage']['retention'][] = ['24h', 86_400_000];
    const origins: ConfigFile['server']['cors']['origins'][] = ['*', ['https://app.example']];
    expect([level, server, retention, origins]).to.have.length(4);
  });

  it('loads every schema field that has a default under its GatewayConfig name', async () => {
    const directory = new TempDirectory();
    try {
      // Only the Redis section needs a value of its own: without a URL there is no `redis` at all.
      const file = directory.write('gateway.yaml', 'redis:\n  url: redis://localhost:6379\n');
      const config = await loadConfig({ argv: ['--config', file], env: {}, cwd: directory.path });
      const missing = defaultedPaths(CONFIG_FILE_SCHEMA, config as unknown as Record<string, unknown>, '');
      expect(missing).to.deep.equal([]);
    } finally {
      directory.remove();
    }
  });
});

/** Paths of defaulted schema fields absent from the loaded config (durations end in Ms, sizes in Bytes). */
function defaultedPaths(node: unknown, config: Record<string, unknown>, path: string): string[] {
  const properties = (node as { properties?: Record<string, Record<string, unknown>> }).properties ?? {};
  return Object.entries(properties).flatMap(([key, field]) => {
    if (!('default' in field)) return [];
    const name = field.format === 'duration' ? `${key}Ms` : field.format === 'byte-size' && !key.endsWith('Bytes') ? `${key}Bytes` : key;
    const value = config[name];
    if (value === undefined) return [`${path}${key}`];
    return field.properties && typeof value === 'object' ? defaultedPaths(field, value as Record<string, unknown>, `${path}${key}.`) : [];
  });
}
