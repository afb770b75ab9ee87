import { expect } from 'chai';
import { decodeForTest, durationSeconds } from '../../support/audio-analysis';
import { EdgeStandIn, fixtureAudio } from './stand-in';
import { createProvider, synthesisRequest, splitFrame } from './harness';

describe('edge plugin: synthesis over the read-aloud WebSocket', () => {
  let standIn: EdgeStandIn;
  beforeEach(async () => {
    standIn = await EdgeStandIn.start();
  });
  afterEach(() => standIn.close());

  it('sends speech.config then escaped SSML with the long voice name and prosody, and joins the audio frames', async () => {
    const provider = await createProvider(standIn);
    const audio = await provider.synthesize(synthesisRequest({ text: 'Fish & <chips>', speed: 2, pitch: 1.5 }));

    expect(audio.format).to.equal('mp3');
    expect(Buffer.from(audio.audio).equals(Buffer.from(fixtureAudio()))).to.equal(true);
    expect(durationSeconds(await decodeForTest(audio.audio, 'mp3'))).to.be.greaterThan(0.5);

    const [connection] = standIn.connections;
    const [config, ssml] = connection.messages.map(splitFrame);
    expect(config.headers).to.include({ Path: 'speech.config', 'Content-Type': 'application/json; charset=utf-8' });
    expect(JSON.parse(config.body).context.synthesis.audio.outputFormat).to.equal('audio-24khz-48kbitrate-mono-mp3');
    expect(ssml.headers).to.include({ Path: 'ssml', 'Content-Type': 'application/ssml+xml' });
    expect(ssml.headers['X-RequestId']).to.match(/^[0-9a-f]{32}$/);
    expect(ssml.headers['X-Timestamp']).to.match(/^\w{3} \w{3} \d{2} \d{4} \d{2}:\d{2}:\d{2} GMT\+0000 \(Coordinated Universal Time\)Z$/);
    // Aria has not been listed yet, so her gender is unknown: the 160 Hz reference applies.
    expect(ssml.body).to.equal(
      "<speak version='1.0' xmlns='http://www.w3.org/2001/10/synthesis' xml:lang='en-US'>" +
        "<voice name='Microsoft Server Speech Text to Speech Voice (en-US, AriaNeural)'>" +
        "<prosody rate='+100%' pitch='+80Hz'>Fish &amp; &lt;chips&gt;</prosody></voice></speak>",
    );
  });

  it('sends integer percent rates and integer relative Hz pitches from the listed voice gender', async () => {
    const provider = await createProvider(standIn);
    await provider.voices('edge-tts');
    await provider.synthesize(synthesisRequest({ speed: 1.234, pitch: 1.5 }));
    await provider.synthesize(synthesisRequest({ voice: 'de-DE-ConradNeural', speed: 0.5, pitch: 0.5 }));
    await provider.synthesize(synthesisRequest({ voice: 'en-US-EmmaMultilingualNeural', speed: 0.996, pitch: 1.002 }));
    const prosody = standIn.connections.map((connection) => /<prosody ([^>]*)>/.exec(splitFrame(connection.messages[1]).body)?.[1]);
    // Female reference 210 Hz, male 120 Hz: 1.5 x 210 is +105 Hz, 0.5 x 120 is -60 Hz.
    expect(prosody).to.deep.equal(["rate='+23%' pitch='+105Hz'", "rate='-50%' pitch='-60Hz'", "rate='+0%' pitch='+0Hz'"]);
  });

  it('presents the browser identity and a current Sec-MS-GEC token on the upgrade', async () => {
    const provider = await createProvider(standIn);
    await provider.synthesize(synthesisRequest());
    const [connection] = standIn.connections;
    expect(connection.url.pathname).to.equal('/consumer/speech/synthesize/readaloud/edge/v1');
    expect(connection.url.searchParams.get('TrustedClientToken')).to.equal('6A5AA1D4EAFF4E9FB37E23D68491D6F4');
    expect(connection.url.searchParams.get('ConnectionId')).to.match(/^[0-9a-f]{32}$/);
    // the stand-in checks the token against its own (independent) computation and accepted it
    expect(standIn.refusals).to.equal(0);
    expect(connection.url.searchParams.get('Sec-MS-GEC')).to.match(/^[0-9A-F]{64}$/);
    expect(connection.url.searchParams.get('Sec-MS-GEC-Version')).to.equal('1-143.0.3650.96');
    expect(connection.headers.origin).to.equal('chrome-extension://jdiccldimpdaibmpdkjnbmckianbfold');
    expect(connection.headers['user-agent']).to.include('Edg/143.0.0.0');
    expect(connection.headers['accept-encoding']).to.equal('gzip, deflate, br, zstd');
    expect(connection.headers.cookie).to.match(/^muid=[0-9A-F]{32}$/);
  });

  it('sends a fresh random MUID cookie with every connection, as the reference clients do', async () => {
    const provider = await createProvider(standIn);
    await provider.synthesize(synthesisRequest());
    await provider.synthesize(synthesisRequest());
    const [first, second] = standIn.connections.map((connection) => connection.headers.cookie);
    expect(first).to.match(/^muid=[0-9A-F]{32}$/);
    expect(second).to.match(/^muid=[0-9A-F]{32}$/);
    expect(first).to.not.equal(second);
  });

  it('sends no prosody at default settings and takes xml:lang from a dialect voice id', async () => {
    const provider = await createProvider(standIn);
    await provider.synthesize(synthesisRequest({ voice: 'zh-CN-liaoning-XiaobeiNeural', text: '你好' }));
    const ssml = splitFrame(standIn.connections[0].messages[1]).body;
    expect(ssml).to.include("xml:lang='zh-CN-liaoning'");
    expect(ssml).to.include("<voice name='Microsoft Server Speech Text to Speech Voice (zh-CN-liaoning, XiaobeiNeural)'>你好</voice>");
  });

  it("learns the service's clock from a refusal's Date header and succeeds on the one retry", async () => {
    standIn.clockOffsetMs = 60 * 60 * 1000;
    const provider = await createProvider(standIn);
    const audio = await provider.synthesize(synthesisRequest());
    expect(audio.audio.byteLength).to.be.greaterThan(0);
    expect(standIn.refusals).to.equal(1);
    expect(standIn.connections).to.have.length(1);
  });
});
