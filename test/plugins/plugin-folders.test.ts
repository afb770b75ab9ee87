import { expect } from 'chai';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../support/paths';

/** The file that does each job, by the same name in every plugin folder. */
const PLUGIN_FILES = ['index.ts', 'options-schema.ts', 'client.ts', 'provider.ts', 'models.ts', 'voices.ts', 'request-body.ts', 'errors.ts', 'README.md'];
/** The tests of each plugin, by the same names; a stand-in only where there is an upstream to stand in for. */
const TEST_FILES = ['harness.ts', 'conformance.test.ts', 'catalog.test.ts', 'synthesis.test.ts', 'errors.test.ts'];
const WITHOUT_UPSTREAM = ['espeak'];

const pluginIds = readdirSync(join(projectRoot, 'plugins')).filter((entry) => statSync(join(projectRoot, 'plugins', entry)).isDirectory());

describe('plugins: one shape for every plugin folder', () => {
  it('finds the built-in plugins', () => {
    expect(pluginIds).to.include.members(['openai', 'espeak', 'edge', 'polly']);
  });

  for (const id of pluginIds) {
    it(`${id}: the same file names for the same jobs, and tests named alike under test/plugins/${id}`, () => {
      const missing = PLUGIN_FILES.filter((file) => !existsSync(join(projectRoot, 'plugins', id, file)));
      expect(missing, `plugins/${id} lacks`).to.deep.equal([]);
      const tests = [...TEST_FILES, ...(WITHOUT_UPSTREAM.includes(id) ? [] : ['stand-in.ts'])];
      const missingTests = tests.filter((file) => !existsSync(join(projectRoot, 'test', 'plugins', id, file)));
      expect(missingTests, `test/plugins/${id} lacks`).to.deep.equal([]);
    });
  }
});
