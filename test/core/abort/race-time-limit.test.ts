import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'chai';
import { raceTimeLimit, TimeLimitExceeded } from '../../../core/abort/race-time-limit';

const HELPER = join(__dirname, '..', '..', '..', 'core', 'abort', 'race-time-limit.js');

/** Runs `body` in a fresh Node process with `raceTimeLimit` in scope; answers its output and how long it lived. */
function inFreshProcess(body: string): { stdout: string; milliseconds: number } {
  const started = Date.now();
  const child = spawnSync(process.execPath, ['-e', `const { raceTimeLimit } = require(${JSON.stringify(HELPER)});\n${body}`], { encoding: 'utf8', timeout: 20_000 });
  expect(child.status, child.stderr).to.equal(0);
  return { stdout: child.stdout, milliseconds: Date.now() - started };
}

describe('core/abort: raceTimeLimit', () => {
  it('settles as the work does within the limit', async () => {
    expect(await raceTimeLimit(Promise.resolve('done'), 1_000)).to.equal('done');
    const failure = new Error('the work failed');
    expect(await raceTimeLimit(Promise.reject(failure), 1_000).catch((error: unknown) => error)).to.equal(failure);
  });

  it('rejects with a TimeLimitExceeded naming the limit in seconds once it passes, and leaves the work’s later failure handled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const failsLater = new Promise((_resolve, reject) => setTimeout(() => reject(new Error('the work failed later')), 40));
      const error = await raceTimeLimit(failsLater, 20).catch((caught: unknown) => caught);
      expect(error).to.be.instanceOf(TimeLimitExceeded);
      expect(error).to.include({ limitMs: 20, message: 'did not finish within 0.02 s' });
      await new Promise((resolve) => setTimeout(resolve, 60));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).to.deep.equal([]);
  });

  it('clears its timer when the work settles: a long limit does not keep the process alive after it', () => {
    const { stdout, milliseconds } = inFreshProcess(`raceTimeLimit(Promise.resolve('done'), 60_000).then((value) => console.log(value));`);
    expect(stdout).to.equal('done\n');
    expect(milliseconds).to.be.below(10_000);
  });

  it('holds the process until the limit while the work is pending (a stop waiting on a stuck close() still gets to its next steps)', () => {
    const { stdout, milliseconds } = inFreshProcess(`raceTimeLimit(new Promise(() => undefined), 300).catch((error) => console.log(error.message));`);
    expect(stdout).to.equal('did not finish within 0.3 s\n');
    expect(milliseconds).to.be.at.least(300);
  });
});
