import { expect } from 'chai';
import { SampleCollector } from '../../../plugins/espeak/sample-collector';

describe('espeak plugin: SampleCollector', () => {
  it('joins blocks in order into a buffer of their own, and starts again empty', () => {
    const collector = new SampleCollector(1 << 20);
    collector.append(Int16Array.from([1, 2, 3]));
    collector.append(new Int16Array(0));
    collector.append(Int16Array.from([-4, 5]));
    const samples = collector.take();
    expect(Array.from(samples)).to.deep.equal([1, 2, 3, -4, 5]);
    expect(samples.byteLength).to.equal(samples.buffer.byteLength);
    expect(collector.collected).to.equal(0);
    collector.append(Int16Array.from([7]));
    expect(Array.from(collector.take())).to.deep.equal([7]);
    // The answer handed out is not overwritten by the next synthesis.
    expect(Array.from(samples)).to.deep.equal([1, 2, 3, -4, 5]);
  });

  it('grows past its first buffer without losing samples, also past what it keeps', () => {
    const collector = new SampleCollector(20_000);
    const block = Int16Array.from({ length: 7_000 }, (_value, index) => index % 1000);
    for (let count = 0; count < 10; count += 1) collector.append(block);
    const samples = collector.take();
    expect(samples.length).to.equal(70_000);
    expect(samples[69_999]).to.equal(6_999 % 1000);
    collector.append(block);
    expect(collector.take().length).to.equal(7_000);
  });
});
