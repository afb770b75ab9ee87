import { expect } from 'chai';
import { GatewayError } from '../../../core';
import type { ModelCapabilities } from '../../../core';
import { appliedOf, planSynthesis } from '../../../core/synthesis/synthesis-plan';
import type { SynthesisRequest } from '../../../core/synthesis/synthesis-request';

const codecs = { decodable: ['pcm', 'wav', 'mp3', 'flac', 'opus'] as const, encodable: ['pcm', 'wav', 'mp3', 'flac', 'opus'] as const };
const openAiLike: ModelCapabilities = { formats: ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'], speed: { min: 0.25, max: 4 }, maxInputChars: 4096 };
const narrow: ModelCapabilities = { formats: ['mp3', 'pcm'], speed: { min: 0.7, max: 1.2 }, maxInputChars: 5000 };
const request = (overrides: Partial<SynthesisRequest> = {}): SynthesisRequest => ({
  model: 'm', voice: 'v', text: 'Hello.', speed: 1, pitch: 1, volume: 1, format: 'mp3', ...overrides,
});

describe('core/synthesis planSynthesis', () => {
  it('passes a plain request straight through in the native format', () => {
    const plan = planSynthesis(request(), openAiLike, codecs);
    expect(plan.needsAudioProcessing).to.equal(false);
    expect(plan.providerFormat).to.equal('mp3');
    expect(plan.native).to.deep.equal({});
    expect(appliedOf(plan)).to.deep.equal({ speed: 'default', pitch: 'default', volume: 'default', format: 'native', chunks: 1 });
  });

  it('passes speed natively inside the native range and asks for the compressed format directly', () => {
    const plan = planSynthesis(request({ speed: 2 }), openAiLike, codecs);
    expect(plan.native).to.deep.equal({ speed: 2 });
    expect(plan.needsAudioProcessing).to.equal(false);
    expect(plan.providerFormat).to.equal('mp3');
  });

  it('does pitch and volume in the gateway and asks the provider for PCM', () => {
    const plan = planSynthesis(request({ pitch: 2, volume: 0.5 }), openAiLike, codecs);
    expect(plan.dsp).to.deep.equal({ speed: 1, pitch: 2, volume: 0.5 });
    expect(plan.providerFormat).to.equal('pcm');
    expect(appliedOf(plan)).to.deep.equal({ speed: 'default', pitch: 'dsp', volume: 'dsp', format: 'transcoded', chunks: 1 });
  });

  it('does speed in the gateway outside a narrow native range', () => {
    expect(planSynthesis(request({ speed: 1.1 }), narrow, codecs).native).to.deep.equal({ speed: 1.1 });
    const plan = planSynthesis(request({ speed: 2 }), narrow, codecs);
    expect(plan.native).to.deep.equal({});
    expect(plan.dsp.speed).to.equal(2);
  });

  it('transcodes a format the provider lacks, from PCM', () => {
    const plan = planSynthesis(request({ format: 'wav' }), narrow, codecs);
    expect(plan.providerFormat).to.equal('pcm');
    expect(plan.formatBy).to.equal('transcoded');
  });

  it('splits text longer than the model limit', () => {
    const plan = planSynthesis(request({ text: 'Short one. '.repeat(1000) }), openAiLike, codecs);
    expect(plan.chunks.length).to.be.greaterThan(2);
    expect(plan.needsAudioProcessing).to.equal(true);
  });

  it('refuses (422) a format neither side can make', () => {
    expect(() => planSynthesis(request({ format: 'flac' }), narrow, { decodable: codecs.decodable, encodable: ['pcm', 'wav'] })).to.throw(GatewayError).with.property('status', 422);
  });

  it('refuses aac (400) before any provider call when the gateway has no ffmpeg to encode it, saying how to enable it', () => {
    expect(() => planSynthesis(request({ format: 'aac' }), narrow, codecs))
      .to.throw(GatewayError, /install it .*ffmpeg|audio\.ffmpegPath/)
      .with.property('status', 400);
  });
});
