import 'reflect-metadata';
import { runGateway } from '../../../server/run-gateway';

/** The plugins' create() and close() time limit of this entry, instead of 30 s and 10 s. */
export const SHORT_PLUGIN_LIMIT_MS = 300;

/**
 * `npm start`'s entry (server/main.ts) with short plugin time limits, for spawned tests of a
 * plugin that never finishes: they then end in a second, not in the default limits.
 */
if (require.main === module) {
  void runGateway({
    argv: process.argv.slice(2),
    env: process.env,
    stderr: process.stderr,
    exit: (code) => process.exit(code),
    pluginTimeLimits: { createTimeoutMs: SHORT_PLUGIN_LIMIT_MS, closeTimeoutMs: SHORT_PLUGIN_LIMIT_MS },
  });
}
