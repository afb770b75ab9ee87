import { expect } from 'chai';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { canDecodeZstd, decodeZstd, isZstdFrame } from '../../../plugins/edge/zstd-body';
import { EdgeStandIn, zstdStoredFrame } from './stand-in';
import { createProvider } from './harness';

describe('edge plugin: models and voices', () => {
  let standIn: EdgeStandIn;
  beforeEach(async () => {
    standIn = await EdgeStandIn.start();
  });
  afterEach(() => standIn.close());

  it('declares edge-tts with mp3 only, native rate and pitch, and input limits', async () => {
    const [model] = await (await createProvider(standIn)).models();
    expect(model.name).to.equal('edge-tts');
    expect(model.capabilities).to.deep.include({ formats: ['mp3'], speed: { min: 0.5, max: 2 }, pitch: { min: 0.5, max: 1.5 }, maxInputChars: 1500, maxInputBytes: 2048, maxEscapedInput: { max: 4096, unit: 'bytes' } });
    expect(model.capabilities.volume).to.equal(undefined);
  });

  it('maps the read-aloud voice list to VoiceDto entries', async () => {
    const voices = await (await createProvider(standIn)).voices('edge-tts');
    const [request] = standIn.voiceRequests;
    expect(request.searchParams.get('trustedclienttoken')).to.equal('6A5AA1D4EAFF4E9FB37E23D68491D6F4');
    expect(request.searchParams.get('Sec-MS-GEC')).to.match(/^[0-9A-F]{64}$/); // checked by the stand-in, or it answers 403
    const [headers] = standIn.voiceRequestHeaders;
    expect(headers['accept-encoding']).to.equal('gzip, deflate, br, zstd');
    expect(headers.cookie).to.match(/^muid=[0-9A-F]{32}$/);
    expect(voices.map((voice) => voice.voiceId)).to.deep.equal(['en-US-AriaNeural', 'en-US-EmmaMultilingualNeural', 'de-DE-ConradNeural', 'zh-CN-liaoning-XiaobeiNeural']);
    expect(voices[0]).to.deep.equal({
      voiceId: 'en-US-AriaNeural',
      voiceName: 'Aria',
      language: 'en-US',
      gender: 'Female',
      description: 'Microsoft Aria Online (Natural) - English (United States); News, Novel, Positive, Confident',
    });
    expect(voices[1].voiceName).to.equal('Emma Multilingual');
    expect(voices[2]).to.include({ gender: 'Male', language: 'de-DE' });
  });

  it('reads a zstd-compressed voice list, or asks once more without zstd where Node cannot decode it', async () => {
    standIn.behaviour = 'zstd-voices';
    const voices = await (await createProvider(standIn)).voices('edge-tts');
    expect(voices.map((voice) => voice.voiceId)).to.include('en-US-AriaNeural');
    const encodings = standIn.voiceRequestHeaders.map((headers) => headers['accept-encoding']);
    // Node 20's fetch passes zstd through undecoded and node:zlib has no zstd before Node 22.15.
    expect(encodings).to.deep.equal(canDecodeZstd ? ['gzip, deflate, br, zstd'] : ['gzip, deflate, br, zstd', 'gzip, deflate, br']);
  });

  it('decodes a zstd frame when this Node can, and recognises one by its magic bytes', () => {
    const frame = zstdStoredFrame(new TextEncoder().encode('[{"ShortName":"x"}]'));
    expect(isZstdFrame(frame)).to.equal(true);
    expect(isZstdFrame(new TextEncoder().encode('[]'))).to.equal(false);
    if (canDecodeZstd) expect(new TextDecoder().decode(decodeZstd(frame))).to.equal('[{"ShortName":"x"}]');
    else expect(() => decodeZstd(frame)).to.throw('zstd is not available');
  });

  it('answers 503 (client may need an update) when the voice list is refused', async () => {
    standIn.behaviour = 'refuse';
    const error = await expectGatewayError((await createProvider(standIn)).voices('edge-tts'), 'TTS_ERR_UNAVAILABLE');
    expect(error.message).to.include('may need an update');
  });

  it('refuses a model it does not serve', async () => {
    await expectGatewayError((await createProvider(standIn)).voices('azure-tts'), 'TTS_ERR_MODEL_NOT_FOUND');
  });
});
