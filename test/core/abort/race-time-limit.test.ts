import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'chai';
import { raceTimeLimit, TimeLimitExceeded } from '../../../core/abort/race-time-limit';

const HELPER = join(__dirname, '..', '..', '..', 'core', 'abort', 'race-time-limit.js');

/** Runs `body` in a fresh Node process with `raceTimeLimit` in scope; answers its output once it has exited by itself. */
function inFreshProcess(body: string): string {
  const child = spawnSync(process.execPath, ['-e', `const { raceTimeLimit } = require(${JSON.stringify(HELPER)});\n${body}`], { encoding: 'utf8', timeout: 20_000 });
  expect(child.status, child.stderr).to.equal(0);
  return child.stdout;
}

describe('core/abort: raceTimeLimit', () => {
  it('settles as the work does within the limit', async () => {
    expect(await raceTimeLimit(Promise.resolve('done'), 1_000)).to.equal('done');
    // Work that ends on a timer due before the limit's: the limit has not passed yet.
    expect(await raceTimeLimit(new Promise((resolve) => setTimeout(() => resolve('later'), 10)), 200)).to.equal('later');
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
    // Once settled, no timer of its own is left to hold the process (the child would otherwise live 60 s).
    const stdout = inFreshProcess(
      `raceTimeLimit(Promise.resolve('done'), 60_000).then((value) => console.log(value, process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length));`,
    );
    expect(stdout).to.equal('done 0\n');
  });

  it('holds the process until the limit while the work is pending (a stop waiting on a stuck close() still gets to its next steps)', () => {
    // Nothing else holds the child: it prints only if the limit's timer kept it alive until it fired.
    const stdout = inFreshProcess(`raceTimeLimit(new Promise(() => undefined), 300).catch((error) => console.log(error.message));`);
    expect(stdout).to.equal('did not finish within 0.3 s\n');
  });
});
