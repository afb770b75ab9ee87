import { expect } from 'chai';
import { getEventListeners } from 'node:events';
import { raceAbort } from '../../../core/abort/race-abort';

/** Rejections nobody handled while `run` and a few turns after it went by. */
async function unhandledDuring(run: () => Promise<void>): Promise<unknown[]> {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => {
    unhandled.push(reason);
  };
  process.on('unhandledRejection', onUnhandled);
  try {
    await run();
    await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
  return unhandled;
}

const failsLater = (): Promise<never> => new Promise((_resolve, reject) => setTimeout(() => reject(new Error('the work failed later')), 5));

describe('core/abort: raceAbort', () => {
  it('settles as the work does, and takes its listener off the signal', async () => {
    const controller = new AbortController();
    expect(await raceAbort(Promise.resolve('done'), controller.signal, () => 'aborted')).to.equal('done');
    const failure = new Error('the work failed');
    expect(await raceAbort(Promise.reject(failure), controller.signal, () => 'aborted').catch((error: unknown) => error)).to.equal(failure);
    expect(getEventListeners(controller.signal, 'abort')).to.have.length(0);
  });

  it('rejects with the reason as soon as the signal aborts, and leaves the work’s later failure handled', async () => {
    const controller = new AbortController();
    let seen: unknown;
    const unhandled = await unhandledDuring(async () => {
      const raced = raceAbort(failsLater(), controller.signal, () => 'aborted').catch((error: unknown) => (seen = error));
      controller.abort();
      await raced;
    });
    expect(seen).to.equal('aborted');
    expect(unhandled).to.deep.equal([]);
  });

  it('rejects at once on a signal aborted already, and leaves the work’s later failure handled (an unhandled one ends the process)', async () => {
    const controller = new AbortController();
    controller.abort();
    let seen: unknown;
    const unhandled = await unhandledDuring(async () => {
      await raceAbort(failsLater(), controller.signal, () => 'aborted').catch((error: unknown) => (seen = error));
    });
    expect(seen).to.equal('aborted');
    expect(unhandled).to.deep.equal([]);
  });
});
