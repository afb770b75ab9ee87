import { expect } from 'chai';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { readAll } from '../../support/http-stand-in';
import { recordedAudio } from '../../support/recorded-audio';
import { answerBeforeStream, isLeadingPart, standInProvider, streamUntilFirstChunk } from '../../support/streaming-flow';
import { createProvider, parseAuthorization, synthesisRequest, TEST_CREDENTIALS } from './harness';
import { expectedSignature } from './sigv4-reference';

/** Real speech from the recorded mp3 answer, sent by the stand-in in two pieces. */
const speech = recordedAudio('polly', 'synthesize-mp3');
const half = Math.floor(speech.byteLength / 2);
const AUDIO_HEADERS = { 'content-type': 'audio/mpeg', 'x-amzn-requestcharacters': '6' };

describe('polly plugin: native streaming (the SynthesizeSpeech AudioStream) against a local stand-in', () => {
  const suite = standInProvider((baseUrl) => createProvider({ baseUrl }));

  it('posts the same signed SynthesizeSpeech call as synthesize and hands on the first bytes before the last piece is sent', async () => {
    const started = await streamUntilFirstChunk(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest({ format: 'mp3', speed: 1.5 })), AUDIO_HEADERS, speech.subarray(0, half));
    const { request } = started;
    expect(request.method).to.equal('POST');
    expect(request.path).to.equal('/v1/speech');
    expect(request.headers['content-type']).to.equal('application/json');
    const body = request.body.toString();
    expect(JSON.parse(body)).to.deep.equal({
      Engine: 'neural',
      OutputFormat: 'mp3',
      SampleRate: '24000',
      VoiceId: 'Joanna',
      Text: '<speak><prosody rate="150%">Hello.</prosody></speak>',
      TextType: 'ssml',
    });
    const authorization = parseAuthorization(String(request.headers.authorization));
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
    const host = new URL(suite.standIn.url).host;
    const signature = expectedSignature({ method: request.method, path: request.path, headers, body }, host, TEST_CREDENTIALS.secretAccessKey, authorization.signedHeaders, {
      date: authorization.date,
      region: 'us-east-1',
      service: 'polly',
    });
    expect(authorization.signature).to.equal(signature);
    expect(isLeadingPart(started.first, speech.subarray(0, half))).to.equal(true);
    expect(started.stream).to.include({ format: 'mp3', sampleRate: 24000 });

    await started.answer.end(speech.subarray(half));
    const rest = await readAll(started.iterator);
    expect(Buffer.concat([started.first, rest]).equals(Buffer.from(speech))).to.equal(true);
  });

  it('refuses an answer whose Content-Type is not the audio asked for, and closes it', async () => {
    const answer = suite.standIn.nextAnswer();
    const opening = suite.provider.synthesizeStream!(synthesisRequest({ format: 'pcm' }));
    await answer.request;
    answer.head(200, { 'content-type': 'audio/mpeg' });
    await answer.send(speech.subarray(0, half));
    await expectGatewayError(opening, 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
    await answer.closedByClient;
  });

  it('stops reading the answer when the request is cancelled mid-stream', async () => {
    const controller = new AbortController();
    const started = await streamUntilFirstChunk(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest({ format: 'mp3', signal: controller.signal })), AUDIO_HEADERS, speech.subarray(0, half));
    controller.abort();
    await expectGatewayError(started.iterator.next(), 'TTS_ERR_CANCELLED');
    await started.answer.closedByClient;
  });

  it('maps an error status before the stream (Polly\'s throttling 400) to a rate limit', async () => {
    const body = JSON.stringify({ message: 'Rate exceeded' });
    const headers = { 'content-type': 'application/json', 'x-amzn-errortype': 'ThrottlingException:http://internal.amazon.com/coral/com.amazonaws.polly/' };
    const error = await expectGatewayError(answerBeforeStream(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest({ format: 'mp3' })), 400, headers, body), 'TTS_ERR_RATE_LIMITED');
    expect(error.details[0]).to.include({ providerCode: 'ThrottlingException' });
  });

  it('throws a coded error, not a clean end, when the connection breaks off mid-stream', async () => {
    const started = await streamUntilFirstChunk(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest({ format: 'mp3' })), AUDIO_HEADERS, speech.subarray(0, half));
    started.answer.cut();
    await expectGatewayError(readAll(started.iterator), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
  });
});
