import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { CONFIG_FILE_SCHEMA } from '../../config/schema';
import { projectRoot } from '../support/paths';

interface SchemaNode {
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly items?: SchemaNode;
}

/** Every setting a file may hold: `server.port`, `providers[].maxResponseBytes`, ... */
function settings(node: SchemaNode, path = ''): string[] {
  const properties = node.properties ?? node.items?.properties;
  if (!properties) return [path];
  const prefix = node.items ? `${path}[]` : path;
  return Object.entries(properties).flatMap(([key, child]) => settings(child, prefix === '' ? key : `${prefix}.${key}`));
}

/**
 * The names in the first cell of each table row, as full paths: `storage.s3.accessKeyId`,
 * `secretAccessKey` names its sibling, and a row of the Providers table names `providers[].<field>`.
 */
function documentedNames(markdown: string): Set<string> {
  const names = new Set<string>();
  let section = '';
  for (const line of markdown.split('\n')) {
    if (line.startsWith('#')) section = line;
    if (!line.startsWith('| `')) continue;
    const cell = line.split('|')[1];
    const written = [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
    if (written.length === 0) continue;
    const parent = written[0].includes('.') ? written[0].slice(0, written[0].lastIndexOf('.') + 1) : section === '### Providers' ? 'providers[].' : '';
    for (const name of written) names.add(name.includes('.') ? name : `${parent}${name}`);
  }
  return names;
}

// The configuration reference is the contract: a setting the schema takes is a row of its tables.
describe('README.md: the configuration reference', () => {
  const names = documentedNames(readFileSync(join(projectRoot, 'README.md'), 'utf8'));
  // Aliases and routes are shown by their example and the text under it.
  const checked = settings(CONFIG_FILE_SCHEMA as SchemaNode).filter((path) => !/^(aliases|routes)\[\]/.test(path));

  it('has a row for every setting the schema accepts (a row for `providers[].resilience` covers its fields)', () => {
    const covered = (path: string) => names.has(path) || [...names].some((name) => name.includes('[].') && path.startsWith(`${name}.`));
    expect(checked.filter((path) => !covered(path))).to.deep.equal([]);
  });
});
