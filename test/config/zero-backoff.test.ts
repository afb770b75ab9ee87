import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../config';
import { rejection, TempDirectory } from './config-test-helpers';

/**
 * A zero `backoff` retries a failing provider at once, attempt after attempt (full jitter of
 * zero is zero): it is refused while retries are on, and accepted with `retries: 0`, where it
 * means nothing.
 */
describe('config: a zero retry backoff', () => {
  let directory: TempDirectory;
  beforeEach(() => {
    directory = new TempDirectory();
  });
  afterEach(() => directory.remove());

  const load = (yaml: string) => loadConfig({ argv: ['--config', directory.write('gateway.yaml', yaml)], env: {}, cwd: directory.path });
  const problemsOf = async (yaml: string) => ((await rejection(load(yaml))) as ConfigError).problems;
  const message = (path: string) => `${path}: must be a duration greater than zero while retries are on (a zero backoff retries a failing provider at once); set retries: 0 to turn retries off`;

  it('refuses backoff: 0 with retries, naming the setting', async () => {
    expect(await problemsOf('resilience: { retries: 2, backoff: 0ms }\n')).to.include(message('resilience.backoff'));
  });

  it("refuses a provider's own retries over a zero backoff it inherits", async () => {
    const problems = await problemsOf('resilience: { retries: 0, backoff: 0 }\nproviders: [{ plugin: espeak, resilience: { retries: 3 } }]\n');
    expect(problems).to.include(message('providers[0].resilience.backoff'));
  });

  it('accepts backoff: 0 where there are no retries', async () => {
    const config = await load('resilience: { retries: 0, backoff: 0ms, maxBackoff: 0ms }\n');
    expect(config.resilience).to.include({ retries: 0, backoffMs: 0 });
  });
});
