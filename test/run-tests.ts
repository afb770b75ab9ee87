/**
 * Runs every compiled test file with mocha's spec reporter and ends the output with one line
 * `N passed, N failed`, which CI reads. A run that executes no test exits non-zero.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Mocha from 'mocha';
import { stopSharedServers } from './support/servers/shared-servers';

function findTestFiles(directory: string): string[] {
  return readdirSync(directory)
    .flatMap((entry) => {
      const path = join(directory, entry);
      if (statSync(path).isDirectory()) return findTestFiles(path);
      return entry.endsWith('.test.js') ? [path] : [];
    })
    .sort();
}

const testRoot = resolve(__dirname);
const filter = process.argv[2];
const mocha = new Mocha({ reporter: 'spec', timeout: 60_000, require: [] });
for (const file of findTestFiles(testRoot)) {
  if (!filter || file.includes(filter)) mocha.addFile(file);
}
require('./support/global-setup');

const runner = mocha.run((failures) => {
  const passed = runner.stats?.passes ?? 0;
  const failed = failures;
  // Exit explicitly (like mocha --exit): a pooled worker or socket must not hold CI open.
  void stopSharedServers().finally(() => {
    process.stdout.write(`\n${passed} passed, ${failed} failed\n`, () => process.exit(failed > 0 || passed === 0 ? 1 : 0));
  });
});
