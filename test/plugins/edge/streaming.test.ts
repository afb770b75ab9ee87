import { expect } from 'chai';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { readAll } from '../../support/http-stand-in';
import { EdgeStandIn, fixtureAudio } from './stand-in';
import { createProvider, splitFrame, synthesisRequest } from './harness';

describe('edge plugin: native streaming (the socket\'s audio frames as they arrive) against the stand-in', () => {
  let standIn: EdgeStandIn;
  beforeEach(async () => {
    standIn = await EdgeStandIn.start();
  });
  afterEach(() => standIn.close());

  it('sends the same turn as synthesize and hands on the first audio frame before the service sends the rest', async () => {
    const provider = await createProvider(standIn);
    const held = standIn.holdNextAnswer();
    const stream = await provider.synthesizeStream!(synthesisRequest({ speed: 2 }));
    await held.holding;
    const iterator = stream.chunks[Symbol.asyncIterator]();
    const first = await iterator.next();
    const [firstFrame] = standIn.audioFrames();
    expect(Buffer.from(first.value as Uint8Array).equals(Buffer.from(firstFrame))).to.equal(true);
    expect(stream.format).to.equal('mp3');

    const [config, ssml] = standIn.connections[0].messages.map(splitFrame);
    expect(config.headers).to.include({ Path: 'speech.config' });
    expect(JSON.parse(config.body).context.synthesis.audio.outputFormat).to.equal('audio-24khz-48kbitrate-mono-mp3');
    expect(ssml.headers).to.include({ Path: 'ssml' });
    expect(ssml.body).to.include("<prosody rate='+100%'>Hello from Edge.</prosody>");

    held.release();
    const rest = await readAll(iterator);
    expect(Buffer.concat([first.value as Uint8Array, rest]).equals(Buffer.from(fixtureAudio()))).to.equal(true);
  });

  it('stops the turn and closes the socket when the request is cancelled mid-stream', async () => {
    const provider = await createProvider(standIn);
    const controller = new AbortController();
    const held = standIn.holdNextAnswer();
    const stream = await provider.synthesizeStream!(synthesisRequest({ signal: controller.signal }));
    const iterator = stream.chunks[Symbol.asyncIterator]();
    await iterator.next();
    controller.abort();
    await expectGatewayError(iterator.next(), 'TTS_ERR_CANCELLED');
    await held.closedByConsumer;
  });

  it('closes the socket when the consumer stops reading', async () => {
    const provider = await createProvider(standIn);
    const held = standIn.holdNextAnswer();
    const stream = await provider.synthesizeStream!(synthesisRequest());
    const iterator = stream.chunks[Symbol.asyncIterator]();
    await iterator.next();
    await iterator.return?.();
    await held.closedByConsumer;
  });

  it('throws a coded error, not a clean end, when the socket breaks off mid-turn', async () => {
    const provider = await createProvider(standIn);
    const held = standIn.holdNextAnswer();
    const stream = await provider.synthesizeStream!(synthesisRequest());
    const iterator = stream.chunks[Symbol.asyncIterator]();
    await iterator.next();
    held.cut();
    const error = await expectGatewayError(readAll(iterator), 'TTS_ERR_UNAVAILABLE');
    expect(error.message).to.include('closed the socket');
  });

  it('throws failures that come before any audio when the stream starts: a refused upgrade, a turn without audio', async () => {
    const provider = await createProvider(standIn);
    standIn.behaviour = 'refuse';
    const refused = await expectGatewayError(provider.synthesizeStream!(synthesisRequest()), 'TTS_ERR_UNAVAILABLE');
    expect(refused.details[0]).to.include({ reason: 'service_refused', upstreamStatus: 403 });
    standIn.behaviour = 'no-audio';
    const silent = await expectGatewayError(provider.synthesizeStream!(synthesisRequest()), 'TTS_ERR_UNAVAILABLE');
    expect(silent.message).to.include('without audio');
  });

  it('retries a stream once with the service\'s clock when its refusal shows clock skew', async () => {
    standIn.clockOffsetMs = 20 * 60 * 1000;
    const provider = await createProvider(standIn);
    const stream = await provider.synthesizeStream!(synthesisRequest());
    expect(Buffer.from(await readAll(stream.chunks)).equals(Buffer.from(fixtureAudio()))).to.equal(true);
    expect(standIn.refusals).to.equal(1);
  });
});
