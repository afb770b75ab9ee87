import { expect } from 'chai';
import { encodeAudio, GatewayError, type GatewayError as GatewayErrorType } from '../../../core';
import { truncationOf } from '../../../core/audio/frame-walker';
import { wavHeader } from '../../../core/audio/encode/wav-encoder';
import { checkProviderAudio } from '../../../core/synthesis/checked-audio';
import { QUIET_LOGGER } from '../../support/quiet-logger';
import { speechPcm } from '../audio/speech-fixture';
import { nativeStreamService, request } from './streaming-fixture';

async function speechWav(): Promise<Uint8Array> {
  return (await encodeAudio(speechPcm(), 'wav')).audio;
}

const WAV_REQUEST = request({ text: 'A short text that one call takes whole.', format: 'wav' });

describe('core/synthesis WAV answers cut short (fewer data bytes than the header gives)', () => {
  it('finds a WAV whose data stops before the size in its header; an exact or open-ended one passes', async () => {
    const wav = await speechWav();
    expect(truncationOf(wav, 'wav')).to.equal(undefined);
    expect(truncationOf(wav.subarray(0, wav.length - 1000), 'wav')).to.match(/cut short/);
    const openEnded = Buffer.concat([wavHeader(22050), wav.subarray(44, 1044)]);
    expect(truncationOf(openEnded, 'wav')).to.equal(undefined);
  });

  it('makes a whole WAV answer cut short a bad upstream answer (502), as pcm sent with a WAV header too', async () => {
    const cut = (await speechWav()).subarray(0, 20_000);
    for (const format of ['wav', 'pcm'] as const) {
      expect(() => checkProviderAudio('acme', { audio: cut, format, sampleRate: 22050, warnings: [] }, QUIET_LOGGER, 'test-request'), format)
        .to.throw(GatewayError)
        .with.property('code', 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
    }
  });

  it('fails a WAV stream passed through that ends before the size in its header', async () => {
    const wav = await speechWav();
    const stream = await nativeStreamService('wav', wav.subarray(0, 20_000)).stream(WAV_REQUEST, { requestId: 'wav-cut' });
    expect(stream.applied.format, 'the provider bytes pass as they came').to.equal('native');
    const failure = await (async () => {
      for await (const piece of stream.chunks) void piece;
    })().then(
      () => undefined,
      (error: GatewayErrorType) => error,
    );
    expect(failure?.code).to.equal('TTS_ERR_UPSTREAM_BAD_RESPONSE');
    const whole = await nativeStreamService('wav', wav).stream(WAV_REQUEST, { requestId: 'wav-whole' });
    let bytes = 0;
    for await (const piece of whole.chunks) bytes += piece.byteLength;
    expect(bytes).to.equal(wav.length);
  });
});
