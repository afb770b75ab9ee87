import { expect } from 'chai';
import { encodeAudio, GatewayError } from '../../../core';
import { truncationOf } from '../../../core/audio/frame-walker';
import { checkProviderAudio } from '../../../core/synthesis/checked-audio';
import { QUIET_LOGGER } from '../../support/quiet-logger';
import { recordedAudio } from '../../support/recorded-audio';
import { speechPcm } from '../audio/speech-fixture';
import { failureOf, nativeStreamService, request } from './streaming-fixture';

/** STREAMINFO's total of samples set to 0 ("unknown"), as a streaming encoder leaves it. */
function withoutTotal(flac: Uint8Array): Uint8Array {
  const streamed = Uint8Array.from(flac);
  streamed[21] &= 0xf0;
  streamed.fill(0, 22, 26);
  return streamed;
}

/**
 * A FLAC answer that stops frames before the samples its STREAMINFO counts is cut short: decoded,
 * it was refused (502), but passed on as it came (a stream, or a whole answer already FLAC) it
 * went to the client as a success. Its frame headers are now counted against that total. A
 * STREAMINFO of 0 ("unknown", as streamed) gives no verdict, nor can a cut inside the last frame.
 */
describe('core/synthesis FLAC answers cut short (fewer frames than STREAMINFO counts)', () => {
  it('finds a FLAC whose frames stop before its STREAMINFO total; a whole one, or one of unknown length, passes', async () => {
    for (const flac of [(await encodeAudio(speechPcm(), 'flac')).audio, recordedAudio('deepgram', 'synthesize-flac')]) {
      expect(truncationOf(flac, 'flac')).to.equal(undefined);
      const cut = flac.subarray(0, Math.floor(flac.length * 0.6));
      expect(truncationOf(cut, 'flac')).to.match(/cut short/);
      expect(truncationOf(withoutTotal(cut), 'flac')).to.equal(undefined);
    }
  });

  it('makes a whole FLAC answer cut short a bad upstream answer (502)', async () => {
    const flac = (await encodeAudio(speechPcm(), 'flac')).audio;
    expect(() => checkProviderAudio('acme', { audio: flac.subarray(0, 20_000), format: 'flac', warnings: [] }, QUIET_LOGGER, 'test-request'))
      .to.throw(GatewayError)
      .with.property('code', 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
  });

  it('fails a FLAC stream passed through that ends frames before its STREAMINFO total', async () => {
    const flac = (await encodeAudio(speechPcm(), 'flac')).audio;
    const FLAC_REQUEST = request({ text: 'A short text that one call takes whole.', format: 'flac' });
    const stream = await nativeStreamService('flac', flac.subarray(0, 20_000)).stream(FLAC_REQUEST, { requestId: 'flac-cut' });
    expect(stream.applied.format, 'the provider bytes pass as they came').to.equal('native');
    expect((await failureOf(stream.chunks))?.code).to.equal('TTS_ERR_UPSTREAM_BAD_RESPONSE');
    const whole = await nativeStreamService('flac', flac).stream(FLAC_REQUEST, { requestId: 'flac-whole' });
    expect(await failureOf(whole.chunks)).to.equal(undefined);
  });
});
