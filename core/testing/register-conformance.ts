import type { ConformanceOptions } from './conformance-options';
import { conformanceSuite } from './conformance-suite';

/**
 * The part of a test runner the suite needs. Mocha, node:test and Vitest have these names;
 * for Jest pass `{ describe, it, before: beforeAll, after: afterAll }`.
 */
export interface ConformanceRunner {
  describe(name: string, body: () => void): unknown;
  /** `fn` receives the runner's test context (mocha's `this`, node:test's `t`, Vitest's context). */
  it(name: string, fn: (context: unknown) => Promise<void>): unknown;
  before(fn: () => Promise<void>): unknown;
  after(fn: () => Promise<void>): unknown;
  /** Marks a running test as skipped (mocha: `context.skip()`); without it a skipped check passes. */
  skip?(context: unknown, reason: string): void;
}

/** Declares the suite in any runner: one `describe` per group, one `it` per check. */
export function registerConformance<Options>(runner: ConformanceRunner, options: ConformanceOptions<Options>): void {
  const suite = conformanceSuite(options);
  runner.describe(suite.name, () => {
    runner.before(() => suite.setUp());
    runner.after(() => suite.tearDown());
    for (const group of suite.groups) {
      runner.describe(group.name, () => {
        for (const check of group.checks) {
          runner.it(check.name, async (context) => {
            const outcome = await check.run();
            if (outcome.status === 'skipped') runner.skip?.(context, outcome.reason);
          });
        }
      });
    }
  });
}
