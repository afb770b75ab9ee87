/** Paths inside a config file as a reader writes them: `providers[1].options.apiKey`. */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

export function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  if (!IDENTIFIER.test(key)) return `${parent}[${JSON.stringify(key)}]`;
  return parent === '' ? key : `${parent}.${key}`;
}

/** Turns an ajv instancePath (`/providers/1/options/apiKey`) into a readable path. */
export function pointerToPath(pointer: string, prefix = ''): string {
  if (pointer === '') return prefix;
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<string>((path, segment) => childPath(path, /^\d+$/.test(segment) ? Number(segment) : segment), prefix);
}
