import { expect } from 'chai';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { readAll } from '../../support/http-stand-in';
import { answerBeforeStream, isLeadingPart, standInProvider, streamUntilFirstChunk } from '../../support/streaming-flow';
import { createProvider, fixtureAudio, synthesisRequest, TEST_KEY } from './harness';

/** Real speech from the recorded mp3 answer, sent by the stand-in in two pieces. */
const speech = fixtureAudio('synthesize-mp3');
const half = Math.floor(speech.byteLength / 2);
const AUDIO_HEADERS = { 'content-type': 'audio/mpeg' };

describe('azure plugin: native streaming (the chunked REST answer) against a local stand-in', () => {
  const suite = standInProvider((baseUrl) => createProvider({ baseUrl }));

  it('posts the same SSML call as synthesize and hands on the first bytes before the last piece is sent', async () => {
    const started = await streamUntilFirstChunk(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest({ speed: 1.25 })), AUDIO_HEADERS, speech.subarray(0, half));
    const { request } = started;
    expect(request.method).to.equal('POST');
    expect(request.path).to.equal('/cognitiveservices/v1');
    expect(request.headers['ocp-apim-subscription-key']).to.equal(TEST_KEY);
    expect(request.headers['content-type']).to.equal('application/ssml+xml');
    expect(request.headers['x-microsoft-outputformat']).to.equal('audio-24khz-48kbitrate-mono-mp3');
    expect(request.headers['user-agent']).to.equal('tts-gateway');
    expect(request.body.toString()).to.equal(
      "<speak version='1.0' xmlns='http://www.w3.org/2001/10/synthesis' xml:lang='en-US'><voice name='en-US-JennyNeural'><prosody rate='+25%'>Hello.</prosody></voice></speak>",
    );
    expect(isLeadingPart(started.first, speech.subarray(0, half))).to.equal(true);
    expect(started.stream.format).to.equal('mp3');

    await started.answer.end(speech.subarray(half));
    const rest = await readAll(started.iterator);
    expect(Buffer.concat([started.first, rest]).equals(Buffer.from(speech))).to.equal(true);
  });

  it('streams raw 24 kHz pcm for pcm and says its rate', async () => {
    const started = await streamUntilFirstChunk(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest({ format: 'pcm' })), { 'content-type': 'audio/x-wav' }, new Uint8Array(960));
    expect(started.request.headers['x-microsoft-outputformat']).to.equal('raw-24khz-16bit-mono-pcm');
    expect(started.stream).to.include({ format: 'pcm', sampleRate: 24000 });
    await started.answer.end(new Uint8Array(960));
    expect((await readAll(started.iterator)).byteLength + started.first.byteLength).to.equal(1920);
  });

  it('stops reading the answer when the request is cancelled mid-stream', async () => {
    const controller = new AbortController();
    const started = await streamUntilFirstChunk(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest({ signal: controller.signal })), AUDIO_HEADERS, speech.subarray(0, half));
    controller.abort();
    await expectGatewayError(started.iterator.next(), 'TTS_ERR_CANCELLED');
    await started.answer.closedByClient;
  });

  it('maps an error status before the stream (Azure\'s 429, empty body) to a rate limit with its Retry-After', async () => {
    const error = await expectGatewayError(answerBeforeStream(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest()), 429, { 'retry-after': '7' }, ''), 'TTS_ERR_RATE_LIMITED');
    expect(error.retryAfterSeconds).to.equal(7);
  });

  it('throws a coded error, not a clean end, when the connection breaks off mid-stream', async () => {
    const started = await streamUntilFirstChunk(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest()), AUDIO_HEADERS, speech.subarray(0, half));
    started.answer.cut();
    await expectGatewayError(readAll(started.iterator), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
  });
});
