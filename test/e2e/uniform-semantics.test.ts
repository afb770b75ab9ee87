import { expect } from 'chai';
import {
  AudioProcessor,
  decodableFormats,
  encodableFormats,
  planSynthesis,
  SEAM_CROSSFADE_SECONDS,
  sniffAudioFormat,
  type Adjustment,
  type SynthesisPlan,
  type SynthesisRequest,
} from '../../core';
import { decodeForTest, durationSeconds } from '../support/audio-analysis';
import { codePoints, expectEffects, expectRequested } from './semantics-checks';
import { SemanticsPipeline } from './semantics-pipeline';
import { SUBJECTS } from './semantics-subjects';
import { decodeAndMeasure, describeRatio, seamCentres, seamSteps, withinRatio, type SpeechMeasures } from './speech-measures';

const CODECS = { decodable: decodableFormats(), encodable: encodableFormats() };
const ADJUSTMENTS: readonly Adjustment[] = ['speed', 'pitch', 'volume'];
/** Multi-byte letters and a dash, so byte limits (Google, Edge) bind before character limits. */
const SENTENCE = 'Über café façades the gateway splits long text at sentence boundaries — every chunk is spoken in order. ';
const LONG_TEXT = SENTENCE.repeat(Math.ceil(10_000 / SENTENCE.length)).slice(0, 10_000);
const NEUTRAL = { speed: 1, pitch: 1, volume: 1 } as const;

/** One line per model for the closing table: what was measured and who applied what. */
const report: string[] = [];

/**
 * Speed, pitch, volume and format mean the same on every built-in model: measured on decoded
 * output of the real pipeline (loader -> catalog -> synthesis service -> worker-pool audio
 * engine) when the gateway applies them, and seen in the outgoing request when the provider does.
 */
describe('e2e: uniform semantics of speed, pitch, volume and format on every built-in model', function () {
  this.timeout(120_000);
  let processor: AudioProcessor;

  before(async () => {
    processor = new AudioProcessor({ workers: 2 });
    await processor.warmUp();
  });
  after(async () => {
    await processor?.close();
    if (process.env.SEMANTICS_REPORT) console.log(`\n${report.join('\n')}\n`);
  });

  for (const subject of SUBJECTS) {
    describe(`plugin ${subject.pluginId}`, () => {
      let pipeline: SemanticsPipeline;
      before(async () => {
        pipeline = await SemanticsPipeline.start(await subject.setUp(), processor);
      });
      after(async () => pipeline?.close());

      it('is tested on a model of every distinct capability shape it declares', () => {
        const shapes = new Map<string, string[]>();
        for (const model of pipeline.loaded.models) shapes.set(JSON.stringify(model.capabilities), [...(shapes.get(JSON.stringify(model.capabilities)) ?? []), model.name]);
        for (const models of shapes.values()) expect(models.some((model) => subject.models.includes(model)), `one of ${models.join(', ')} is tested`).to.equal(true);
      });

      for (const model of subject.models) {
        describe(`model ${model}`, () => {
          let base: SynthesisRequest;
          let baseline: SpeechMeasures;
          const applied: string[] = [];
          const plan = (request: SynthesisRequest): SynthesisPlan => planSynthesis(request, pipeline.capabilities(model), CODECS);
          const measure = async (request: SynthesisRequest) => {
            const output = await pipeline.synthesize(request);
            expect(output.filesSaved).to.equal(1);
            return { output, measures: (await decodeAndMeasure(output.stored.audio, 'wav')).measures };
          };

          before(async () => {
            base = { model, voice: await pipeline.firstVoice(model), text: subject.text, ...NEUTRAL, format: 'wav' };
            ({ measures: baseline } = await measure(base));
            expect(baseline.speech, 'baseline speech duration').to.be.greaterThan(0.2);
            expect(baseline.f0, 'baseline median F0').to.be.within(60, 400);
          });
          after(() => {
            report.push(
              `${`${subject.pluginId}/${model}`.padEnd(34)} base speech ${baseline?.speech.toFixed(2)} s, F0 ${baseline?.f0.toFixed(0)} Hz, RMS ${baseline?.rms.toFixed(3)}, peak ${baseline?.peak.toFixed(2)} | ${applied.join(' ')}`,
            );
          });

          for (const adjustment of ADJUSTMENTS) {
            for (const value of [2, 0.5]) {
              it(`${adjustment} ${value}: measured on the audio when the gateway applies it, sent upstream when native`, async () => {
                const request = { ...base, [adjustment]: value };
                const appliedBy = plan(request).appliedBy[adjustment];
                const { output, measures } = await measure(request);
                expect(output.result.applied[adjustment]).to.equal(appliedBy);
                const audible = appliedBy === 'dsp' || subject.realEngine === true;
                if (audible) expectEffects(baseline, measures, { ...NEUTRAL, [adjustment]: value });
                else expect(measures.speech, 'fixture audio passed through').to.be.closeTo(baseline.speech, baseline.speech * 0.1);
                expectRequested(subject.pluginId, output, adjustment, value, appliedBy === 'native');
                applied.push(`${adjustment[0]}${value}=${appliedBy}${audible ? `(${ratioOf(adjustment, baseline, measures)})` : ''}`);
              });
            }
          }

          it('speed 2 + pitch 2 + volume 0.5 together: every effect holds at once', async () => {
            const request = { ...base, speed: 2, pitch: 2, volume: 0.5 };
            const appliedBy = plan(request).appliedBy;
            const { output, measures } = await measure(request);
            const audible = (adjustment: Adjustment, value: number) => (appliedBy[adjustment] === 'dsp' || subject.realEngine ? value : 1);
            expectEffects(baseline, measures, { speed: audible('speed', 2), pitch: audible('pitch', 2), volume: audible('volume', 0.5) });
            for (const adjustment of ADJUSTMENTS) expectRequested(subject.pluginId, output, adjustment, request[adjustment], appliedBy[adjustment] === 'native');
          });

          for (const format of CODECS.encodable) {
            it(`format ${format}: the stored bytes are ${format}, transcoded unless native, and hold the whole speech`, async () => {
              const native = pipeline.capabilities(model).formats.includes(format);
              const output = await pipeline.synthesize({ ...base, format });
              expect(output.filesSaved).to.equal(1);
              expect(output.result.applied.format).to.equal(native ? 'native' : 'transcoded');
              if (format === 'pcm') expect(output.stored.sampleRate, 'pcm sample rate reported').to.be.greaterThan(7999);
              else expect(sniffAudioFormat(output.stored.audio)).to.equal(format);
              expect(output.result.sampleRate).to.equal(output.stored.sampleRate);
              const { measures } = await decodeAndMeasure(output.stored.audio, format, output.stored.sampleRate);
              // A native format is the provider's own bytes, unchanged; the stand-ins' recordings of
              // some formats are other takes, so their reference is those bytes, not the wav baseline.
              const [call] = output.providerCalls;
              if (native) expect(Buffer.from(output.stored.audio).equals(Buffer.from(call.audio?.audio ?? []))).to.equal(true);
              const reference = native ? (await decodeAndMeasure(call.audio?.audio ?? new Uint8Array(), format, call.audio?.sampleRate)).measures.speech : baseline.speech;
              expect(withinRatio(measures.speech, reference), describeRatio(`${format} speech duration`, measures.speech, reference)).to.equal(true);
            });
          }

          it('10,000 characters: one file from one call per chunk, every chunk within the limits, joined without loss or clicks', async () => {
            const capabilities = pipeline.capabilities(model);
            const request = { ...base, text: LONG_TEXT };
            const chunkCount = plan(request).chunks.length;
            const output = await pipeline.synthesize(request);
            expect(output.filesSaved).to.equal(1);
            expect(output.result.applied.chunks).to.equal(chunkCount);
            expect(output.providerCalls.length).to.equal(chunkCount);
            if (subject.pluginId === 'openai') expect(chunkCount).to.be.at.least(3);
            const texts = output.sent ? output.sent.map((sent) => sent.text) : output.providerCalls.map((call) => call.request.text);
            expect(texts.length, 'calls the provider received').to.equal(chunkCount);
            for (const text of texts) {
              expect(codePoints(text)).to.be.at.most(capabilities.maxInputChars);
              if (capabilities.maxInputBytes) expect(Buffer.byteLength(text, 'utf8')).to.be.at.most(capabilities.maxInputBytes);
            }
            expect(texts.join('').replace(/\s+/g, ''), 'the chunks hold the whole text').to.equal(LONG_TEXT.replace(/\s+/g, ''));
            const chunks = await Promise.all(output.providerCalls.map((call) => decodeForTest(call.audio?.audio ?? new Uint8Array(), call.audio?.format ?? 'wav', call.audio?.sampleRate)));
            const pcm = await decodeForTest(output.stored.audio, 'wav');
            const expected = chunks.reduce((sum, chunk) => sum + durationSeconds(chunk), 0) - (chunkCount - 1) * SEAM_CROSSFADE_SECONDS;
            expect(withinRatio(durationSeconds(pcm), expected), describeRatio('joined duration', durationSeconds(pcm), expected)).to.equal(true);
            const steps = seamSteps(pcm, seamCentres(chunks, pcm.sampleRate, SEAM_CROSSFADE_SECONDS));
            expect(steps.atSeams, 'largest step at a seam vs elsewhere').to.be.at.most(steps.elsewhere);
            applied.push(`long=${chunkCount}x(${(durationSeconds(pcm) / expected).toFixed(3)})`);
          });
        });
      }
    });
  }
});

function ratioOf(adjustment: Adjustment, baseline: SpeechMeasures, measured: SpeechMeasures): string {
  const ratio = adjustment === 'speed' ? baseline.speech / measured.speech : adjustment === 'pitch' ? measured.f0 / baseline.f0 : measured.rms / baseline.rms;
  return ratio.toFixed(2);
}
