import { expect } from 'chai';
import { loadEspeakEngine, type EspeakEngine } from '../../../plugins/espeak/engine';
import { EngineHolder } from '../../../plugins/espeak/engine-holder';

const PROSODY = { rate: 175, pitch: 50, range: 50, gain: 1 };
const ANOTHER_CLIENTS_TEXT = 'This is a long sentence another client asked for, with many words in it, going on and on for a while.';

/** Makes the engine's block callback throw at its second block (as a failed allocation would). */
function breakAtSecondBlock(engine: EspeakEngine): () => void {
  const collector = (engine as unknown as { collector: { append(samples: Int16Array): void } }).collector;
  const append = collector.append.bind(collector);
  let blocks = 0;
  collector.append = (samples) => {
    blocks += 1;
    if (blocks === 2) throw new RangeError('Array buffer allocation failed');
    append(samples);
  };
  return () => (collector.append = append);
}

const spokenSamples = (engine: EspeakEngine, text: string): number => engine.synthesize('en-us', text, PROSODY, () => false).samples.length;

describe('espeak EngineHolder: one engine per thread, let go when a synthesis broke it', function () {
  this.timeout(30_000);

  it('gives a fresh engine after a synthesis broke off, so the next one speaks only its own text', async () => {
    const alone = spokenSamples(await loadEspeakEngine(), 'Hello.');
    const holder = new EngineHolder(loadEspeakEngine);
    const broken = await holder.get();
    const restore = breakAtSecondBlock(broken);
    expect(() => broken.synthesize('en-us', ANOTHER_CLIENTS_TEXT, PROSODY, () => false)).to.throw(RangeError);
    restore();
    expect(broken.usable).to.equal(false);
    holder.releaseIfUnusable(broken);
    const next = await holder.get();
    expect(next).to.not.equal(broken);
    expect(spokenSamples(next, 'Hello.')).to.equal(alone);
    // Why: the broken engine still holds the rest of the other text, and speaks it first.
    expect(spokenSamples(broken, 'Hello.')).to.be.greaterThan(alone * 2);
  });

  it('keeps a usable engine for the next tasks', async () => {
    const holder = new EngineHolder(loadEspeakEngine);
    const engine = await holder.get();
    spokenSamples(engine, 'Hello.');
    holder.releaseIfUnusable(engine);
    expect(await holder.get()).to.equal(engine);
    expect(holder.current).to.equal(engine);
  });

  it('loads again after a load that failed, instead of failing every later task of the thread', async () => {
    let loads = 0;
    const holder = new EngineHolder(async () => {
      loads += 1;
      if (loads === 1) throw new Error('could not load the engine');
      return { usable: true };
    });
    await holder.get().then(
      () => expect.fail('the first load failed'),
      (error: Error) => expect(error.message).to.equal('could not load the engine'),
    );
    expect(await holder.get()).to.deep.equal({ usable: true });
    expect(loads).to.equal(2);
  });
});
