import { expect } from 'chai';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { readAll } from '../../support/http-stand-in';
import { recordedAudio } from '../../support/recorded-audio';
import { answerBeforeStream, isLeadingPart, standInProvider, streamUntilFirstChunk } from '../../support/streaming-flow';
import { createProvider, synthesisRequest, TEST_KEY } from './harness';

/** Real speech from the recorded mp3 answer, sent by the stand-in in two pieces. */
const speech = recordedAudio('deepgram', 'synthesize-mp3');
const half = Math.floor(speech.byteLength / 2);
const AUDIO_HEADERS = { 'content-type': 'audio/mpeg' };

describe('deepgram plugin: native streaming (chunked /v1/speak) against a local stand-in', () => {
  const suite = standInProvider((baseUrl) => createProvider({ baseUrl }));

  it('posts the same /v1/speak call as synthesize and hands on the first bytes before the last piece is sent', async () => {
    const started = await streamUntilFirstChunk(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest()), AUDIO_HEADERS, speech.subarray(0, half));
    expect(started.request.method).to.equal('POST');
    expect(started.request.path).to.equal('/v1/speak?model=aura-2-thalia-en&encoding=mp3');
    expect(started.request.headers.authorization).to.equal(`Token ${TEST_KEY}`);
    expect(started.request.headers['content-type']).to.equal('application/json');
    expect(JSON.parse(started.request.body.toString())).to.deep.equal({ text: 'Hello from Deepgram.' });
    expect(isLeadingPart(started.first, speech.subarray(0, half))).to.equal(true);
    expect(started.stream.format).to.equal('mp3');

    await started.answer.end(speech.subarray(half));
    const rest = await readAll(started.iterator);
    expect(Buffer.concat([started.first, rest]).equals(Buffer.from(speech))).to.equal(true);
  });

  it('streams headerless linear16 at 24 kHz for pcm', async () => {
    const started = await streamUntilFirstChunk(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest({ format: 'pcm' })), { 'content-type': 'application/octet-stream' }, new Uint8Array(480));
    expect(started.request.path).to.equal('/v1/speak?model=aura-2-thalia-en&encoding=linear16&container=none&sample_rate=24000');
    expect(started.stream).to.include({ format: 'pcm', sampleRate: 24000 });
    await started.answer.end();
    expect((await readAll(started.iterator)).byteLength).to.equal(0);
  });

  it('refuses a voice of the other family before any call', async () => {
    const before = suite.standIn.received.length;
    await expectGatewayError(suite.provider.synthesizeStream!(synthesisRequest({ voice: 'aura-asteria-en' })), 'TTS_ERR_VOICE_NOT_FOUND');
    expect(suite.standIn.received.length).to.equal(before);
  });

  it('stops reading the answer when the request is cancelled mid-stream', async () => {
    const controller = new AbortController();
    const started = await streamUntilFirstChunk(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest({ signal: controller.signal })), AUDIO_HEADERS, speech.subarray(0, half));
    controller.abort();
    await expectGatewayError(started.iterator.next(), 'TTS_ERR_CANCELLED');
    await started.answer.closedByClient;
  });

  it('maps an error status before the stream (a 400 with Deepgram\'s body) to a coded error', async () => {
    const body = JSON.stringify({ err_code: 'INVALID_QUERY_PARAMETER', err_msg: 'Unsupported sample rate.', request_id: 'r-1' });
    const error = await expectGatewayError(answerBeforeStream(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest()), 400, { 'content-type': 'application/json' }, body), 'TTS_ERR_UPSTREAM');
    expect(error.details[0]).to.include({ providerCode: 'INVALID_QUERY_PARAMETER' });
  });

  it('throws a coded error, not a clean end, when the connection breaks off mid-stream', async () => {
    const started = await streamUntilFirstChunk(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest()), AUDIO_HEADERS, speech.subarray(0, half));
    started.answer.cut();
    await expectGatewayError(readAll(started.iterator), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
  });
});
