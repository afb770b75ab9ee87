import { expect } from 'chai';
import { decodeAudio } from '../../../core/audio/decode/decode-audio';
import { createStreamDecoder } from '../../../core/audio/decode/create-stream-decoder';
import { encodeAudio } from '../../../core/audio/encode/encode-audio';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { speechMp3Bytes, speechPcm } from './speech-fixture';

/** Bytes from a fixed linear congruential sequence: the same "corruption" on every run. */
function noiseBytes(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed >>> 0;
  for (let index = 0; index < length; index += 1) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    bytes[index] = state >>> 24;
  }
  return bytes;
}

/** The answer's start kept (so it still sniffs as its format), the rest overwritten with junk. */
function corruptedAfter(audio: Uint8Array, keep: number): Uint8Array {
  const corrupted = audio.slice();
  corrupted.set(noiseBytes(audio.length - keep, 7), keep);
  return corrupted;
}

async function speechOpusBytes(): Promise<Uint8Array> {
  return (await encodeAudio(speechPcm(), 'opus')).audio;
}

describe('core/audio decoders on corrupt compressed audio', () => {
  it('refuse an MP3 or Ogg Opus answer whose frames turn to junk (TTS_ERR_UPSTREAM_BAD_RESPONSE), instead of decoding the junk as noise', async () => {
    const answers = { mp3: speechMp3Bytes(), opus: await speechOpusBytes() };
    for (const [format, audio] of Object.entries(answers) as ['mp3' | 'opus', Uint8Array][]) {
      for (const keep of [200, audio.length >> 1]) {
        const error = await expectGatewayError(decodeAudio(corruptedAfter(audio, keep), format), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
        expect(error.message, `${format} kept ${keep}`).to.include(`its ${format} audio cannot be decoded`);
      }
    }
  });

  it('refuse the junk in a stream too, at the piece that carries it', async () => {
    const audio = corruptedAfter(speechMp3Bytes(), speechMp3Bytes().length >> 1);
    const decoder = createStreamDecoder('mp3');
    try {
      const pieces = async () => {
        for (let start = 0; start < audio.length; start += 1000) await decoder.write(audio.subarray(start, start + 1000));
        await decoder.end();
      };
      await expectGatewayError(pieces(), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
    } finally {
      decoder.dispose();
    }
  });

  it('refuse a FLAC answer whose frames turn to junk, or that stops before the samples its STREAMINFO counts', async () => {
    const flac = (await encodeAudio(speechPcm(), 'flac')).audio;
    for (const [damage, audio] of [
      ['junk after half', corruptedAfter(flac, flac.length >> 1)],
      ['cut at half', flac.subarray(0, flac.length >> 1)],
    ] as const) {
      const error = await expectGatewayError(decodeAudio(audio, 'flac'), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
      expect(error.message, damage).to.include('its flac audio cannot be decoded');
    }
    expect((await decodeAudio(flac, 'flac')).samples.length).to.equal(speechPcm().samples.length);
  });

  it('refuse an Ogg Opus answer cut inside a page, instead of padding it with seconds of made-up silence', async () => {
    const opus = await speechOpusBytes();
    const whole = await decodeAudio(opus, 'opus');
    const cut = opus.subarray(0, opus.length >> 1);
    const error = await expectGatewayError(decodeAudio(cut, 'opus'), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
    expect(error.message).to.include('cut short');
    expect(whole.samples.length / whole.sampleRate).to.be.closeTo(speechPcm().samples.length / speechPcm().sampleRate, 0.01);
  });

  it('refuse an Ogg Opus answer whose tail (after whole pages) is bytes with no Ogg page, instead of decoding only the pages before', async () => {
    const opus = await speechOpusBytes();
    const tailed = new Uint8Array(Buffer.concat([opus, noiseBytes(3000, 7)]));
    const error = await expectGatewayError(decodeAudio(tailed, 'opus'), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
    expect(error.message).to.include('its opus audio cannot be decoded');
  });

  it('still decode whole answers fed in pieces of any size without a complaint', async () => {
    for (const [format, audio] of [['mp3', speechMp3Bytes()], ['opus', await speechOpusBytes()]] as const) {
      for (const size of [1, 333, 4096]) {
        const decoder = createStreamDecoder(format);
        let samples = 0;
        for (let start = 0; start < audio.length; start += size) samples += (await decoder.write(audio.subarray(start, start + size))).length;
        samples += (await decoder.end()).length;
        expect(samples, `${format} in pieces of ${size}`).to.be.above(0);
      }
    }
  });
});
