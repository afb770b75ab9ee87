import { expect } from 'chai';
import { ModelRouter, routeVoices, type ModelRoute, type VoiceInfo } from '../../../core';

const served = (model: string) => ['espeak-ng', 'kokoro', 'tts-1-real'].includes(model);
const voice = (voiceId: string, voiceName: string): VoiceInfo => ({ voiceId, voiceName, language: 'en-US', gender: 'Female', description: '' });

describe('core/routing ModelRouter', () => {
  const narrator: ModelRoute = {
    name: 'narrator',
    strategy: 'fallback',
    targets: [
      { model: 'kokoro', voices: { default: 'af_bella', calm: 'af_sky' } },
      { model: 'espeak-ng', voices: { default: 'en-us', calm: 'en-gb' } },
    ],
  };

  it('gives a route\'s targets in order with each target\'s voice, and a real model as its own target', () => {
    const router = new ModelRouter([narrator], served);
    expect(router.targets('narrator', 'calm')).to.deep.equal([
      { model: 'kokoro', voice: 'af_sky' },
      { model: 'espeak-ng', voice: 'en-gb' },
    ]);
    expect(router.targets('narrator', 'unmapped')).to.deep.equal([
      { model: 'kokoro', voice: 'unmapped' },
      { model: 'espeak-ng', voice: 'unmapped' },
    ]);
    expect(router.targets('espeak-ng', 'de')).to.deep.equal([{ model: 'espeak-ng', voice: 'de' }]);
  });

  it('names the target a fallback route prefers (its first served one), and none for a load-balanced route, an alias or a real model', () => {
    const balanced: ModelRoute = { ...narrator, name: 'balanced', strategy: 'loadbalance' };
    const alias: ModelRoute = { name: 'alias', strategy: 'fallback', targets: [{ model: 'espeak-ng', voices: {} }] };
    const unservedFirst: ModelRoute = { name: 'later', strategy: 'fallback', targets: [{ model: 'gone', voices: {} }, ...narrator.targets] };
    const router = new ModelRouter([narrator, balanced, alias, unservedFirst], served);
    expect(router.preferredTarget('narrator', 'calm')).to.deep.equal({ model: 'kokoro', voice: 'af_sky' });
    expect(router.preferredTarget('later', 'default')).to.deep.equal({ model: 'kokoro', voice: 'af_bella' });
    expect(router.preferredTarget('balanced', 'calm')).to.equal(undefined);
    expect(router.preferredTarget('alias', 'en-us')).to.equal(undefined);
    expect(router.preferredTarget('espeak-ng', 'en-us')).to.equal(undefined);
  });

  it('lets a real model win over a route of the same name and drops targets that are not served', () => {
    const router = new ModelRouter(
      [
        { name: 'tts-1-real', strategy: 'fallback', targets: [{ model: 'espeak-ng', voices: {} }] },
        { name: 'partial', strategy: 'fallback', targets: [{ model: 'gone', voices: {} }, { model: 'espeak-ng', voices: {} }] },
        { name: 'empty', strategy: 'fallback', targets: [{ model: 'gone', voices: {} }] },
      ],
      served,
    );
    expect(router.names()).to.deep.equal(['partial']);
    expect(router.targets('tts-1-real', 'x')).to.deep.equal([{ model: 'tts-1-real', voice: 'x' }]);
    expect(router.targets('partial', 'x')).to.deep.equal([{ model: 'espeak-ng', voice: 'x' }]);
  });

  it('draws the first target of a loadbalance route by weight, the others after it', () => {
    const route: ModelRoute = { name: 'pool', strategy: 'loadbalance', targets: [{ model: 'kokoro', voices: {}, weight: 3 }, { model: 'espeak-ng', voices: {}, weight: 1 }] };
    const draws = [0.1, 0.9, 0.5, 0.76];
    let next = 0;
    const router = new ModelRouter([route], served, () => draws[next++ % draws.length]);
    const firsts = Array.from({ length: 2 }, () => router.targets('pool', 'v')[0].model);
    // 0.1 * 4 = 0.4 < 3 -> kokoro; 0.5 * 4 = 2 < 3 -> kokoro (0.9 and 0.76 draw among the one left).
    expect(firsts).to.deep.equal(['kokoro', 'kokoro']);
    const third = router.targets('pool', 'v');
    expect(third.map((target) => target.model)).to.have.members(['kokoro', 'espeak-ng']);
    let count = 0;
    const fair = new ModelRouter([route], served, () => (count++ % 2 === 0 ? 0.8 : 0));
    expect(fair.targets('pool', 'v').map((target) => target.model)).to.deep.equal(['espeak-ng', 'kokoro']);
  });

  it('lists a route\'s voices by their names, described by the voices they map to', async () => {
    const voices: Record<string, VoiceInfo[]> = { kokoro: [voice('af_bella', 'Bella')], 'espeak-ng': [voice('en-us', 'English (America)'), voice('en-gb', 'English (GB)')] };
    const listed = await routeVoices(narrator, async (model) => voices[model]);
    expect(listed.map((entry) => [entry.voiceId, entry.description])).to.deep.equal([
      ['default', 'Bella (kokoro voice af_bella)'],
      ['calm', 'English (GB) (espeak-ng voice en-gb)'],
    ]);
  });
});
