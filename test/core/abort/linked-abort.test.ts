import { expect } from 'chai';
import { abortedByDeadline, LinkedAbort } from '../../../core/abort/linked-abort';

const tick = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

describe('core/abort LinkedAbort', () => {
  it('aborts with the reason of whichever parent aborts', () => {
    const first = new AbortController();
    const second = new AbortController();
    const link = new LinkedAbort([first.signal, undefined, second.signal]);
    expect(link.signal.aborted).to.equal(false);
    second.abort('client gone');
    expect(link.signal.aborted).to.equal(true);
    expect(link.signal.reason).to.equal('client gone');
    expect(abortedByDeadline(link.signal)).to.equal(false);
  });

  it('starts aborted when a parent already is', () => {
    const parent = new AbortController();
    parent.abort('earlier');
    const link = new LinkedAbort([parent.signal], 1000);
    expect(link.signal.reason).to.equal('earlier');
  });

  it('aborts with a TimeoutError when its time is up, as AbortSignal.timeout does', async () => {
    const link = new LinkedAbort([new AbortController().signal], 5);
    await tick(30);
    expect(link.signal.aborted).to.equal(true);
    expect((link.signal.reason as Error).name).to.equal('TimeoutError');
    expect(abortedByDeadline(link.signal)).to.equal(true);
  });

  it('once disposed, follows neither its parents nor the clock', async () => {
    const parent = new AbortController();
    const link = new LinkedAbort([parent.signal], 5);
    link.dispose();
    parent.abort('late');
    await tick(30);
    expect(link.signal.aborted).to.equal(false);
  });

  it('with its clock stopped, still follows its parents', async () => {
    const parent = new AbortController();
    const link = new LinkedAbort([parent.signal], 5);
    link.stopClock();
    await tick(30);
    expect(link.signal.aborted).to.equal(false);
    parent.abort('client gone');
    expect(link.signal.reason).to.equal('client gone');
  });

  it('aborts on its own with the reason given, and keeps the first reason', () => {
    const parent = new AbortController();
    const link = new LinkedAbort([parent.signal]);
    link.abort('stopped early');
    parent.abort('later');
    expect(link.signal.reason).to.equal('stopped early');
  });
});
