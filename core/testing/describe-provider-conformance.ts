import type { ConformanceOptions } from './conformance-options';
import { registerConformance, type ConformanceRunner } from './register-conformance';

/** Mocha's test context, as much of it as the adapter uses. */
interface MochaContext {
  timeout(milliseconds: number): void;
  skip(): void;
}

type MochaFunction = (this: MochaContext) => unknown;

/** The mocha globals, looked up when called (this module loads fine without mocha). */
function mochaGlobal<Name extends 'describe' | 'it' | 'before' | 'after'>(name: Name): (...parameters: unknown[]) => unknown {
  const found = (globalThis as Record<string, unknown>)[name];
  if (typeof found !== 'function') throw new Error(`describeProviderConformance needs mocha's global ${name}(); with another runner use registerConformance() or runConformance()`);
  return found as (...parameters: unknown[]) => unknown;
}

/**
 * The provider conformance suite as mocha tests: one call in a plugin's own mocha tests proves
 * it keeps the contract (catalog shapes, every declared format really produced, upstream errors
 * mapped to core's codes, cancellation honoured, streaming where the provider streams). Other
 * runners use `registerConformance`, or `runConformance` with no runner at all.
 */
export function describeProviderConformance<Options>(options: ConformanceOptions<Options>): void {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const runner: ConformanceRunner = {
    describe: (name, body) =>
      mochaGlobal('describe')(name, function (this: MochaContext) {
        this.timeout(timeoutMs);
        body();
      }),
    it: (name, fn) => mochaGlobal('it')(name, function (this: MochaContext) {
      return fn(this);
    } as MochaFunction),
    before: (fn) => mochaGlobal('before')(fn),
    after: (fn) => mochaGlobal('after')(fn),
    skip: (context) => (context as MochaContext).skip(),
  };
  registerConformance(runner, options);
}
