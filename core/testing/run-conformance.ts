import type { ConformanceOptions } from './conformance-options';
import { conformanceSuite } from './conformance-suite';

/** The result of one check when the suite runs without a test framework. */
export interface ConformanceResult {
  readonly group: string;
  readonly check: string;
  readonly status: 'passed' | 'failed' | 'skipped';
  /** Why it failed or was skipped. */
  readonly reason?: string;
}

/**
 * Runs the whole suite in order, with no test framework: for a script, a CI step or a runner
 * this kit has no adapter for. A failing setUp fails every check with its reason.
 */
export async function runConformance<Options>(options: ConformanceOptions<Options>): Promise<ConformanceResult[]> {
  const suite = conformanceSuite(options);
  const results: ConformanceResult[] = [];
  let setUpFailure: string | undefined;
  try {
    await suite.setUp();
  } catch (error) {
    setUpFailure = `setUp failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  try {
    for (const group of suite.groups) {
      for (const check of group.checks) {
        if (setUpFailure) {
          results.push({ group: group.name, check: check.name, status: 'failed', reason: setUpFailure });
          continue;
        }
        try {
          const outcome = await check.run();
          results.push({ group: group.name, check: check.name, ...(outcome.status === 'skipped' ? { status: 'skipped', reason: outcome.reason } : { status: 'passed' }) });
        } catch (error) {
          results.push({ group: group.name, check: check.name, status: 'failed', reason: error instanceof Error ? error.message : String(error) });
        }
      }
    }
  } finally {
    await suite.tearDown();
  }
  return results;
}
