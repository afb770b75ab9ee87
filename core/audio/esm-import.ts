import { pathToFileURL } from 'node:url';

/**
 * Loads an ES module at run time. tsc (module commonjs) would turn `import()` into `require()`,
 * which cannot load ESM that uses top-level await; a Function-built import keeps the real one.
 * The package is resolved to an absolute URL first, so the result never depends on the cwd.
 */
const dynamicImport = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

export function importEsm<Module>(packageName: string): Promise<Module> {
  return dynamicImport(pathToFileURL(require.resolve(packageName)).href) as Promise<Module>;
}
