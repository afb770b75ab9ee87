import { expect } from 'chai';
import type { AudioFormat } from '../../../core/audio/audio-format';
import type { AudioInput } from '../../../core/audio/audio-job';
import { AudioProcessor } from '../../../core/audio/audio-processor';
import { resample } from '../../../core/audio/dsp/resample';
import { encodeRawPcm, encodeWav } from '../../../core/audio/encode/wav-encoder';
import type { AudioStreamSession, AudioStreamSpec, EncodedPiece } from '../../../core/audio/stream/audio-stream-types';
import { decodeForTest, durationSeconds, medianF0, rms, speechDurationSeconds, type PcmAudio } from '../../support/audio-analysis';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { speechMp3Bytes, speechPcm, speechWavBytes } from './speech-fixture';

interface StreamRun {
  readonly pieces: readonly EncodedPiece[];
  readonly bytes: Uint8Array;
  readonly last: EncodedPiece;
}

/** Pushes each input (with its continuation flag) and ends the stream. */
async function runStream(session: AudioStreamSession, inputs: readonly { input: AudioInput; continuation?: boolean }[]): Promise<StreamRun> {
  const pieces: EncodedPiece[] = [];
  for (const { input, continuation } of inputs) pieces.push(await session.push(input, { continuation }));
  const last = await session.end();
  pieces.push(last);
  return { pieces, bytes: new Uint8Array(Buffer.concat(pieces.map((piece) => piece.audio))), last };
}

/** Correlation of the 10 ms loudness envelopes: 1 = the same speech in the same places. */
function envelopeCorrelation(first: PcmAudio, second: PcmAudio): number {
  const envelope = (pcm: PcmAudio): number[] => {
    const frame = Math.round(pcm.sampleRate / 100);
    const levels: number[] = [];
    for (let start = 0; start + frame <= pcm.samples.length; start += frame) levels.push(rms({ samples: pcm.samples.subarray(start, start + frame), sampleRate: pcm.sampleRate }));
    return levels;
  };
  const [left, right] = [envelope(first), envelope(second)];
  const length = Math.min(left.length, right.length);
  const mean = (values: number[]) => values.slice(0, length).reduce((total, value) => total + value, 0) / length;
  const [leftMean, rightMean] = [mean(left), mean(right)];
  let product = 0;
  let leftSquares = 0;
  let rightSquares = 0;
  for (let index = 0; index < length; index += 1) {
    product += (left[index] - leftMean) * (right[index] - rightMean);
    leftSquares += (left[index] - leftMean) ** 2;
    rightSquares += (right[index] - rightMean) ** 2;
  }
  return product / Math.sqrt(leftSquares * rightSquares);
}

function largestJump(samples: Float32Array): number {
  let largest = 0;
  for (let index = 1; index < samples.length; index += 1) largest = Math.max(largest, Math.abs(samples[index] - samples[index - 1]));
  return largest;
}

/**
 * A streamed MP3 cannot declare LAME's delay and padding (the whole file's Info frame does): its
 * speech starts 576 + 529 samples late and it ends less than two frames after the speech. Checks
 * that, and returns the part that lines up with the whole file's decoding.
 */
function withoutLameDelay(streamed: PcmAudio, whole: PcmAudio): PcmAudio {
  const delay = 576 + 529;
  const samplesPerFrame = whole.sampleRate >= 32000 ? 1152 : 576;
  expect(streamed.samples.length - whole.samples.length, 'samples a streamed MP3 adds').to.be.within(delay - 529, delay - 529 + 2 * samplesPerFrame);
  return { samples: streamed.samples.subarray(delay, delay + whole.samples.length), sampleRate: streamed.sampleRate };
}

function cut(bytes: Uint8Array, sizes: readonly number[]): Uint8Array[] {
  const result: Uint8Array[] = [];
  for (let start = 0, index = 0; start < bytes.length; index += 1) {
    const size = sizes[index % sizes.length];
    result.push(bytes.subarray(start, start + size));
    start += size;
  }
  return result;
}

/** One answer arriving in pieces: the first opens it, the rest continue it. */
function continued(pieces: readonly Uint8Array[], format: AudioFormat, sampleRate?: number): { input: AudioInput; continuation: boolean }[] {
  return pieces.map((audio, index) => ({ input: { audio, format, sampleRate }, continuation: index > 0 }));
}

describe('AudioProcessor streams (through the worker pool)', function () {
  this.timeout(120_000);
  let processor: AudioProcessor;
  const speech = speechPcm();
  const wav: AudioInput = { audio: speechWavBytes(), format: 'wav' };
  const mp3: AudioInput = { audio: speechMp3Bytes(), format: 'mp3' };
  let pcm16k: AudioInput;
  const neutral = { speed: 1, pitch: 1, volume: 1 };

  before(async () => {
    processor = new AudioProcessor({ workers: 2 });
    await processor.warmUp();
    pcm16k = { audio: encodeRawPcm(await resample(speech, 16000)), format: 'pcm', sampleRate: 16000 };
  });

  after(() => processor.close());

  describe('matches whole-file processing in every format', () => {
    const settings = { speed: 1.25, pitch: 1, volume: 0.8 };
    for (const output of ['mp3', 'opus', 'flac', 'wav', 'pcm', 'aac'] as const) {
      it(`${output}: three answers of three formats and rates give the same duration and speech as one job`, async () => {
        const inputs = [wav, pcm16k, mp3];
        const whole = await processor.process({ inputs, ...settings, output });
        const streamed = await runStream(await processor.openStream({ output, ...settings }), inputs.map((input) => ({ input })));
        if (output !== 'aac') expect(streamed.pieces[0].audio.length, 'bytes from the first push').to.be.above(0);
        expect(streamed.last.sampleRate).to.equal(whole.sampleRate);
        expect(streamed.last.durationSeconds).to.be.closeTo(whole.durationSeconds, 0.005);
        const [expected, decoded] = await Promise.all([decodeForTest(whole.audio, output, whole.sampleRate), decodeForTest(streamed.bytes, output, streamed.last.sampleRate)]);
        const actual = output === 'mp3' ? withoutLameDelay(decoded, expected) : decoded;
        expect(durationSeconds(actual)).to.be.closeTo(durationSeconds(expected), 0.005);
        expect(rms(actual) / rms(expected)).to.be.closeTo(1, 0.05);
        expect(medianF0(actual) / medianF0(expected)).to.be.closeTo(1, 0.05);
        expect(envelopeCorrelation(actual, expected)).to.be.above(0.95);
      });
    }
  });

  it('speed 2 halves the duration across seams, keeping the pitch', async () => {
    const inputs = [wav, mp3, wav].map((input) => ({ input }));
    const normal = await runStream(await processor.openStream({ output: 'pcm', ...neutral }), inputs);
    const fast = await runStream(await processor.openStream({ output: 'pcm', ...neutral, speed: 2 }), inputs);
    const [normalAudio, fastAudio] = await Promise.all([decodeForTest(normal.bytes, 'pcm', 22050), decodeForTest(fast.bytes, 'pcm', 22050)]);
    expect(fast.last.durationSeconds / normal.last.durationSeconds).to.be.closeTo(0.5, 0.01);
    expect(speechDurationSeconds(fastAudio) / speechDurationSeconds(normalAudio)).to.be.closeTo(0.5, 0.03);
    expect(medianF0(fastAudio) / medianF0(normalAudio)).to.be.closeTo(1, 0.1);
  });

  it('joins answers without a click, also when an answer arrives in small pieces', async () => {
    const rate = 22050;
    // The worst case: one answer ends on a positive level, the next starts on a negative one.
    const high = encodeWav({ samples: new Float32Array(rate / 2).fill(0.8), sampleRate: rate });
    const low = encodeRawPcm({ samples: new Float32Array(rate / 2).fill(-0.8), sampleRate: rate });
    const session = await processor.openStream({ output: 'pcm', ...neutral });
    const run = await runStream(session, [{ input: { audio: high, format: 'wav' } }, ...continued(cut(low, [3, 64, 1001]), 'pcm', rate), { input: { audio: high, format: 'wav' } }]);
    const decoded = await decodeForTest(run.bytes, 'pcm', rate);
    expect(durationSeconds(decoded)).to.be.closeTo(1.5, 0.03);
    // A butt splice would jump by 1.6; the 10 ms crossfade spreads it over ~220 samples.
    expect(largestJump(decoded.samples)).to.be.below(0.02);
  });

  it('reassembles raw pcm that arrives in odd byte counts exactly', async () => {
    const bytes = encodeRawPcm(speech);
    const pieces = cut(bytes, [1, 3, 1000, 7, 4095]);
    expect(pieces.some((piece) => piece.length % 2 === 1)).to.equal(true);
    const streamed = await runStream(await processor.openStream({ output: 'pcm', ...neutral }), continued(pieces, 'pcm', 22050));
    const once = await runStream(await processor.openStream({ output: 'pcm', ...neutral }), [{ input: { audio: bytes, format: 'pcm', sampleRate: 22050 } }]);
    expect(streamed.bytes.length).to.equal(bytes.length);
    expect(Buffer.from(streamed.bytes).equals(Buffer.from(once.bytes))).to.equal(true);
    expect(streamed.pieces.slice(0, -1).filter((piece) => piece.audio.length > 0).length).to.be.above(pieces.length / 2);
  });

  it('moves the buffer of an input marked transferable to the worker and copies any other, with the same output', async () => {
    const bytes = encodeRawPcm(speech);
    const kept: AudioInput = { audio: bytes.slice(), format: 'pcm', sampleRate: 22050 };
    const given: AudioInput = { audio: bytes.slice(), format: 'pcm', sampleRate: 22050, transferable: true };
    const copied = await runStream(await processor.openStream({ output: 'pcm', ...neutral }), [{ input: kept }]);
    const moved = await runStream(await processor.openStream({ output: 'pcm', ...neutral }), [{ input: given }]);
    expect(kept.audio.byteLength, 'a copied input is left as it was').to.equal(bytes.byteLength);
    expect(given.audio.byteLength, 'a moved input is emptied here').to.equal(0);
    expect(Buffer.from(moved.bytes).equals(Buffer.from(copied.bytes))).to.equal(true);
  });

  it('decodes an mp3 answer that arrives in pieces like the whole answer', async () => {
    const pieces = continued(cut(mp3.audio, [500]), 'mp3');
    const streamed = await runStream(await processor.openStream({ output: 'wav', ...neutral }), pieces);
    const whole = await runStream(await processor.openStream({ output: 'wav', ...neutral }), [{ input: mp3 }]);
    expect(streamed.last.durationSeconds).to.equal(whole.last.durationSeconds);
    expect(Buffer.from(streamed.bytes).equals(Buffer.from(whole.bytes))).to.equal(true);
  });

  it('streams wav with an open-ended header that our decoder reads to the end', async () => {
    const run = await runStream(await processor.openStream({ output: 'wav', ...neutral }), [{ input: wav }, { input: mp3 }]);
    const view = new DataView(run.pieces[0].audio.buffer, run.pieces[0].audio.byteOffset);
    expect(String.fromCharCode(...run.pieces[0].audio.subarray(0, 4))).to.equal('RIFF');
    expect(view.getUint32(4, true)).to.equal(0xffffffff);
    expect(view.getUint32(40, true)).to.equal(0xffffffff);
    const decoded = await decodeForTest(run.bytes, 'wav');
    expect(durationSeconds(decoded)).to.be.closeTo(run.last.durationSeconds, 1e-9);
  });

  it('resamples to the rate the spec asks for', async () => {
    const run = await runStream(await processor.openStream({ output: 'pcm', ...neutral, sampleRate: 24000 }), [{ input: wav }, { input: pcm16k }]);
    expect(run.last.sampleRate).to.equal(24000);
    const decoded = await decodeForTest(run.bytes, 'pcm', 24000);
    expect(durationSeconds(decoded)).to.be.closeTo(2 * durationSeconds(speech), 0.03);
    expect(medianF0(decoded) / medianF0(speech)).to.be.closeTo(1, 0.05);
  });

  it('reports bad provider bytes as TTS_ERR_UPSTREAM_BAD_RESPONSE and then refuses the session', async () => {
    const session = await processor.openStream({ output: 'mp3', ...neutral });
    await session.push(wav);
    await expectGatewayError(session.push({ audio: new TextEncoder().encode('{"error":"quota exceeded"}'.repeat(10)), format: 'mp3' }), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
    await expectGatewayError(session.push(wav), 'TTS_ERR_INTERNAL');
    await session.close();
    // Declared mp3, really wav: found from the first bytes of the answer.
    const lying = await processor.openStream({ output: 'mp3', ...neutral });
    await expectGatewayError(lying.push({ audio: speechWavBytes(), format: 'mp3' }), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
  });

  it('refuses bad specs and an end without input', async () => {
    await expectGatewayError(processor.openStream({ output: 'wav', ...neutral, speed: 0 }), 'TTS_ERR_VALIDATION');
    await expectGatewayError(processor.openStream({ output: 'wav', ...neutral, sampleRate: 500 } as AudioStreamSpec), 'TTS_ERR_VALIDATION');
    const empty = await processor.openStream({ output: 'wav', ...neutral });
    await expectGatewayError(empty.end(), 'TTS_ERR_INTERNAL');
    await expectGatewayError(empty.push(wav), 'TTS_ERR_INTERNAL');
  });

  it('drops a push whose signal aborted and releases the session', async () => {
    const session = await processor.openStream({ output: 'pcm', ...neutral });
    const controller = new AbortController();
    controller.abort();
    await expectGatewayError(session.push(wav, {}, controller.signal), 'TTS_ERR_CANCELLED');
    await expectGatewayError(session.push(wav), 'TTS_ERR_INTERNAL');
  });
});

describe('AudioProcessor stream limits', function () {
  this.timeout(60_000);
  const neutral = { speed: 1, pitch: 1, volume: 1 };
  const wav: AudioInput = { audio: speechWavBytes(), format: 'wav' };

  it('caps open streams per worker; close() and failures give the place back; the worker serves others', async () => {
    const processor = new AudioProcessor({ workers: 1, maxStreamsPerWorker: 2 });
    try {
      const first = await processor.openStream({ output: 'mp3', ...neutral });
      const second = await processor.openStream({ output: 'flac', ...neutral });
      await first.push(wav);
      await expectGatewayError(processor.openStream({ output: 'wav', ...neutral }), 'TTS_ERR_UNAVAILABLE');
      // Whole-file jobs still run on the same worker meanwhile.
      expect((await processor.process({ inputs: [wav], ...neutral, speed: 1.5, output: 'wav' })).format).to.equal('wav');
      await first.close();
      await first.close();
      await expectGatewayError(first.push(wav), 'TTS_ERR_INTERNAL');
      const third = await processor.openStream({ output: 'wav', ...neutral });
      await expectGatewayError(third.push({ audio: new Uint8Array(100).fill(1), format: 'flac' }), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
      const fourth = await processor.openStream({ output: 'pcm', ...neutral });
      const run = await runStream(fourth, [{ input: wav }]);
      expect(run.last.durationSeconds).to.be.closeTo(durationSeconds(speechPcm()), 0.001);
      await second.close();
    } finally {
      await processor.close();
    }
  });
});
