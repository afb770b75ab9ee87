import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../config';
import { rejection, TempDirectory } from './config-test-helpers';

describe('config: resilience, limits and auth hardening', () => {
  let directory: TempDirectory;
  beforeEach(() => {
    directory = new TempDirectory();
  });
  afterEach(() => directory.remove());

  const load = (yaml: string) => loadConfig({ argv: ['--config', directory.write('gateway.yaml', yaml)], env: {}, cwd: directory.path });

  it('defaults: 2 retries from 200 ms to 5 s, breaker after 5 failures for 30 s, no limits, login keys for 30 days', async () => {
    const config = await loadConfig({ argv: [], env: {}, cwd: directory.path });
    expect(config.resilience).to.deep.equal({
      retries: 2,
      backoffMs: 200,
      maxBackoffMs: 5000,
      breaker: { failures: 5, halfOpenAfterMs: 30_000 },
      relisting: { initialDelayMs: 5000, maxDelayMs: 300_000 },
    });
    expect(config.limits).to.deep.equal({ perKey: {} });
    expect(config.auth.loginKeyTtlMs).to.equal(30 * 86_400_000);
    expect(config.auth.throttle).to.deep.equal({ failures: 5, addressFailures: 20, addressRegistrations: 10, windowMs: 15 * 60_000 });
    expect(config.providers[0].resilience).to.equal(undefined);
  });

  it('reads the issue example and lets one provider override parts of the policy', async () => {
    const config = await load(`
resilience: { retries: 3, backoff: 100ms, maxBackoff: 2s, breaker: { failures: 4, halfOpenAfter: 10s } }
limits: { requestsPerMinute: 60, charactersPerDay: 200000, perKey: { requestsPerMinute: 20 } }
auth: { loginKeyTtl: 7d, throttle: { failures: 3, window: 1m } }
providers:
  - plugin: espeak
  - plugin: espeak
    id: espeak-patient
    resilience: { retries: 5, breaker: { halfOpenAfter: 1m } }
`);
    expect(config.providers[0].resilience).to.equal(undefined);
    expect(config.providers[1].resilience).to.deep.equal({ retries: 5, backoffMs: 100, maxBackoffMs: 2000, breaker: { failures: 4, halfOpenAfterMs: 60_000 } });
    expect(config.limits).to.deep.equal({ requestsPerMinute: 60, charactersPerDay: 200_000, perKey: { requestsPerMinute: 20 } });
    expect(config.auth.loginKeyTtlMs).to.equal(7 * 86_400_000);
    expect(config.auth.throttle).to.deep.equal({ failures: 3, addressFailures: 20, addressRegistrations: 10, windowMs: 60_000 });
  });

  it('names each wrong value', async () => {
    const error = (await rejection(
      load(`
resilience: { retries: -1, backoff: 10s, maxBackoff: 1s }
limits: { requestsPerMinute: 0 }
auth: { loginKeyTtl: 0 }
providers: [{ plugin: espeak, resilience: { breaker: { tries: 3 } } }]
`),
    )) as ConfigError;
    expect(error).to.be.instanceOf(ConfigError);
    expect(error.problems.join('\n')).to.include('resilience.retries').and.include('limits.requestsPerMinute').and.include('providers[0].resilience.breaker');
  });

  it('refuses a maximum backoff shorter than the base, and a zero login key lifetime', async () => {
    const error = (await rejection(load('resilience: { backoff: 10s, maxBackoff: 1s }\nauth: { loginKeyTtl: 0 }\n'))) as ConfigError;
    expect(error.problems).to.include('resilience.maxBackoff: must not be shorter than backoff');
    expect(error.problems).to.include('auth.loginKeyTtl: must be a duration greater than zero');
  });

  it('caps live keys per account at 100 by default, takes another cap and refuses one below 1', async () => {
    expect((await loadConfig({ argv: [], env: {}, cwd: directory.path })).auth.maxKeysPerAccount).to.equal(100);
    expect((await load('auth: { maxKeysPerAccount: 5 }\n')).auth.maxKeysPerAccount).to.equal(5);
    const error = (await rejection(load('auth: { maxKeysPerAccount: 0 }\n'))) as ConfigError;
    expect(error.problems.join('\n')).to.include('auth.maxKeysPerAccount');
  });
});
