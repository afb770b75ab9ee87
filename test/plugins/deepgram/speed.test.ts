import { expect } from 'chai';
import plugin from '../../../plugins/deepgram';
import { planSynthesis } from '../../../core/synthesis/synthesis-plan';
import { pluginTestContext } from '../../support/plugin-test-context';
import { synthesisRequest } from './harness';
import { standInFetch, standInOptions } from './stand-in';

const codecs = { decodable: ['pcm', 'wav', 'mp3', 'flac', 'opus'] as const, encodable: ['pcm', 'wav', 'mp3', 'flac', 'opus'] as const };

describe('deepgram plugin: speed of voices Deepgram documents no speed for', () => {
  it('has the gateway apply a German aura-2 voice\'s speed (DSP) and sends Deepgram no speed parameter', async () => {
    const urls: string[] = [];
    const answer = standInFetch();
    const recording: typeof fetch = async (input, init) => {
      urls.push(String(input));
      return answer(input, init);
    };
    const provider = await plugin.create(standInOptions, pluginTestContext('deepgram-test', recording));
    const model = (await provider.models()).find((candidate) => candidate.name === 'aura-2');
    const voice = 'aura-2-julius-de';
    const plan = planSynthesis({ model: 'aura-2', voice, text: 'Guten Tag.', speed: 1.2, pitch: 1, volume: 1, format: 'mp3' }, model!.capabilities, codecs);
    expect(plan.appliedBy.speed).to.equal('dsp');
    expect(plan.dsp.speed).to.equal(1.2);
    await provider.synthesize(synthesisRequest({ voice, text: 'Guten Tag.', format: plan.providerFormat, ...plan.native }));
    expect(new URL(urls[0]).searchParams.has('speed')).to.equal(false);
  });
});
