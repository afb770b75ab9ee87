import { expect } from 'chai';
import { replayFixture } from '../../support/nock-fixtures';
import { decodeForTest, durationSeconds, parseWavHeader, peak } from '../../support/audio-analysis';
import { createProvider, synthesisRequest, TEST_KEY } from './harness';

async function synthesizeWith(scenario: string, overrides: Parameters<typeof synthesisRequest>[0]) {
  const replay = await replayFixture('azure', scenario);
  try {
    const provider = await createProvider();
    const audio = await provider.synthesize(synthesisRequest(overrides));
    return { audio, request: replay.requests[0] };
  } finally {
    replay.done();
  }
}

describe('azure plugin: synthesis', () => {
  it('sends escaped SSML with rate and semitone pitch, the key and the mp3 output format', async () => {
    const { audio, request } = await synthesizeWith('synthesize-mp3', { text: 'Hello & <welcome>', speed: 1.5, pitch: 1.25 });
    expect(request.method).to.equal('POST');
    expect(request.path).to.equal('/cognitiveservices/v1');
    expect(request.headers['ocp-apim-subscription-key']).to.equal(TEST_KEY);
    expect(request.headers['content-type']).to.equal('application/ssml+xml');
    expect(request.headers['x-microsoft-outputformat']).to.equal('audio-24khz-48kbitrate-mono-mp3');
    expect(request.headers['user-agent']).to.equal('tts-gateway');
    expect(request.body).to.include("<voice name='en-US-JennyNeural'>");
    expect(request.body).to.include("<prosody rate='+50%' pitch='+3.86st'>Hello &amp; &lt;welcome&gt;</prosody>");
    expect(audio.format).to.equal('mp3');
    expect(Buffer.from(audio.audio.subarray(0, 3)).toString('latin1')).to.equal('ID3');
    expect(audio.warnings).to.deep.equal([]);
  });

  it('maps the ends of the native ranges (0.5x rate, one octave down) and returns a real WAV', async () => {
    const { audio, request } = await synthesizeWith('synthesize-wav', { voice: 'en-US-GuyNeural', format: 'wav', speed: 0.5, pitch: 0.5 });
    expect(request.headers['x-microsoft-outputformat']).to.equal('riff-24khz-16bit-mono-pcm');
    expect(request.body).to.include("<prosody rate='-50%' pitch='-12st'>Hello.</prosody>");
    expect(audio.format).to.equal('wav');
    expect(parseWavHeader(audio.audio)).to.include({ sampleRate: 24000, channels: 1 });
  });

  it('sends no prosody element at default settings and labels raw PCM with its 24 kHz rate', async () => {
    const { audio, request } = await synthesizeWith('synthesize-pcm', { format: 'pcm' });
    expect(request.headers['x-microsoft-outputformat']).to.equal('raw-24khz-16bit-mono-pcm');
    expect(request.body).to.not.include('<prosody');
    expect(audio).to.include({ format: 'pcm', sampleRate: 24000 });
    const pcm = await decodeForTest(audio.audio, 'pcm', 24000);
    expect(durationSeconds(pcm)).to.be.closeTo(0.3, 0.01);
    expect(peak(pcm)).to.be.greaterThan(0.1);
  });

  it("takes xml:lang from the voice's locale and asks for Ogg Opus", async () => {
    const { audio, request } = await synthesizeWith('synthesize-opus', { voice: 'zh-CN-XiaoxiaoNeural', text: '你好。', format: 'opus' });
    expect(request.headers['x-microsoft-outputformat']).to.equal('ogg-24khz-16bit-mono-opus');
    expect(request.body).to.include("xml:lang='zh-CN'");
    expect(Buffer.from(audio.audio.subarray(0, 4)).toString('latin1')).to.equal('OggS');
  });
});
