import { expect } from 'chai';
import { encodeAudio, GatewayError } from '../../../core';
import { truncationOf } from '../../../core/audio/frame-walker';
import { checkProviderAudio } from '../../../core/synthesis/checked-audio';
import { QUIET_LOGGER } from '../../support/quiet-logger';
import { recordedAudio } from '../../support/recorded-audio';
import { speechPcm } from '../audio/speech-fixture';
import { failureOf, nativeStreamService, request } from './streaming-fixture';

/** Where each Ogg page of `ogg` starts. */
function pageStarts(ogg: Uint8Array): number[] {
  const starts: number[] = [];
  for (let start = 0; start + 27 <= ogg.length; ) {
    starts.push(start);
    let body = 0;
    for (let index = 0; index < ogg[start + 26]; index += 1) body += ogg[start + 27 + index];
    start += 27 + ogg[start + 26] + body;
  }
  return starts;
}

/** Bytes with no "OggS" in them, as a corrupt tail would be. */
function junk(length: number): Uint8Array {
  return Uint8Array.from({ length }, (_, index) => (index * 37 + 11) % 251);
}

function joined(...parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

/**
 * An Ogg Opus answer whose tail (or a stretch between pages) is bytes with no Ogg page: the walker
 * stopped there without a verdict and the decoder decoded the good part only, so a part of the
 * answer went out as the whole with a 200. Nothing may follow or sit between Ogg pages: it is a
 * bad upstream answer (502), like junk inside MP3 or a cut page. An answer ending exactly on a page
 * boundary is still accepted (README "Provider audio is checked").
 */
describe('core/synthesis Ogg Opus answers with junk after or between their pages', () => {
  it('finds junk after or between the pages; whole answers, recorded or encoded, and one ending on a page boundary pass', async () => {
    const opus = (await encodeAudio(speechPcm(), 'opus')).audio;
    const recorded = ['azure', 'deepgram', 'polly', 'google'].map((plugin) => recordedAudio(plugin, 'synthesize-opus'));
    for (const whole of [opus, ...recorded]) expect(truncationOf(whole, 'opus')).to.equal(undefined);
    const starts = pageStarts(opus);
    expect(truncationOf(opus.subarray(0, starts.at(-1)), 'opus')).to.equal(undefined);
    expect(truncationOf(joined(opus, junk(3000)), 'opus')).to.match(/no Ogg page/);
    expect(truncationOf(joined(opus.subarray(0, starts[3]), junk(500), opus.subarray(starts[3])), 'opus')).to.match(/no Ogg page/);
  });

  it('makes a whole Ogg Opus answer with a junk tail a bad upstream answer (502)', async () => {
    const opus = (await encodeAudio(speechPcm(), 'opus')).audio;
    expect(() => checkProviderAudio('acme', { audio: joined(opus, junk(3000)), format: 'opus', warnings: [] }, QUIET_LOGGER, 'test-request'))
      .to.throw(GatewayError)
      .with.property('code', 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
  });

  it('fails an Ogg Opus stream passed through whose tail is junk; one ending on a page boundary passes', async () => {
    const opus = (await encodeAudio(speechPcm(), 'opus')).audio;
    const OPUS_REQUEST = request({ text: 'A short text that one call takes whole.', format: 'opus' });
    const stream = await nativeStreamService('opus', joined(opus, junk(3000)), 1000).stream(OPUS_REQUEST, { requestId: 'ogg-junk' });
    expect(stream.applied.format, 'the provider bytes pass as they came').to.equal('native');
    expect((await failureOf(stream.chunks))?.code).to.equal('TTS_ERR_UPSTREAM_BAD_RESPONSE');
    const onBoundary = await nativeStreamService('opus', opus.subarray(0, pageStarts(opus).at(-1)), 1000).stream(OPUS_REQUEST, { requestId: 'ogg-boundary' });
    expect(await failureOf(onBoundary.chunks)).to.equal(undefined);
  });
});
