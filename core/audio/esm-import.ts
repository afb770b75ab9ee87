/**
 * Loads an ES module at run time. tsc (module commonjs) would turn `import()` into `require()`,
 * which cannot load ESM that uses top-level await; a Function-built import keeps the real one.
 */
const dynamicImport = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

export function importEsm<Module>(specifier: string): Promise<Module> {
  return dynamicImport(specifier) as Promise<Module>;
}
