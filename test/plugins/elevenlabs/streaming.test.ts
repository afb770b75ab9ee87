import { expect } from 'chai';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { readAll } from '../../support/http-stand-in';
import { recordedAudio } from '../../support/recorded-audio';
import { answerBeforeStream, isLeadingPart, standInProvider, streamUntilFirstChunk } from '../../support/streaming-flow';
import { createProvider, RACHEL, synthesisRequest, TEST_KEY } from './harness';

/** Real speech from the recorded mp3 answer, sent by the stand-in in two pieces. */
const speech = recordedAudio('elevenlabs', 'speech-mp3');
const half = Math.floor(speech.byteLength / 2);
const AUDIO_HEADERS = { 'content-type': 'audio/mpeg' };

describe('elevenlabs plugin: native streaming (/stream) against a local stand-in', () => {
  const suite = standInProvider((baseUrl) => createProvider({ baseUrl }));

  it('posts to /v1/text-to-speech/{voice}/stream and hands on the first bytes before the last piece is sent', async () => {
    const started = await streamUntilFirstChunk(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest()), AUDIO_HEADERS, speech.subarray(0, half));
    expect(started.request.method).to.equal('POST');
    expect(started.request.path).to.equal(`/v1/text-to-speech/${RACHEL}/stream?output_format=mp3_44100_128`);
    expect(started.request.headers['xi-api-key']).to.equal(TEST_KEY);
    expect(started.request.headers['content-type']).to.equal('application/json');
    expect(JSON.parse(started.request.body.toString())).to.deep.equal({ text: 'Hello.', model_id: 'eleven_multilingual_v2' });
    expect(isLeadingPart(started.first, speech.subarray(0, half)), 'the first chunk is the start of the first piece').to.equal(true);
    expect(started.stream.format).to.equal('mp3');

    await started.answer.end(speech.subarray(half));
    const rest = await readAll(started.iterator);
    expect(Buffer.concat([started.first, rest]).equals(Buffer.from(speech))).to.equal(true);
  });

  it("reads the voice's stored settings first when a speed is asked, and streams with them", async () => {
    const settings = suite.standIn.nextAnswer();
    const opening = suite.provider.synthesizeStream!(synthesisRequest({ speed: 1.1 }));
    expect((await settings.request).path).to.equal(`/v1/voices/${RACHEL}/settings`);
    const speechAnswer = suite.standIn.nextAnswer();
    await settings.answer(200, { 'content-type': 'application/json' }, JSON.stringify({ stability: 0.5, use_speaker_boost: true, similarity_boost: 0.75, style: 0, speed: 1 }));
    const speechRequest = await speechAnswer.request;
    expect(speechRequest.path).to.equal(`/v1/text-to-speech/${RACHEL}/stream?output_format=mp3_44100_128`);
    expect(JSON.parse(speechRequest.body.toString()).voice_settings).to.deep.equal({ stability: 0.5, similarity_boost: 0.75, style: 0, use_speaker_boost: true, speed: 1.1 });
    await speechAnswer.answer(200, AUDIO_HEADERS, speech);
    expect(Buffer.from(await readAll((await opening).chunks)).equals(Buffer.from(speech))).to.equal(true);
  });

  it('streams pcm at the configured rate', async () => {
    const pcm = new Uint8Array(4800);
    const started = await streamUntilFirstChunk(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest({ format: 'pcm' })), { 'content-type': 'audio/pcm' }, pcm.subarray(0, 2400));
    expect(started.request.path).to.equal(`/v1/text-to-speech/${RACHEL}/stream?output_format=pcm_24000`);
    expect(started.stream).to.include({ format: 'pcm', sampleRate: 24000 });
    await started.answer.end(pcm.subarray(2400));
    expect((await readAll(started.iterator)).byteLength + started.first.byteLength).to.equal(4800);
  });

  it('throws when streamed pcm ends on half a sample', async () => {
    const started = await streamUntilFirstChunk(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest({ format: 'pcm' })), { 'content-type': 'audio/pcm' }, new Uint8Array(100));
    await started.answer.end(new Uint8Array(1));
    await expectGatewayError(readAll(started.iterator), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
  });

  it('stops reading the answer when the request is cancelled mid-stream', async () => {
    const controller = new AbortController();
    const started = await streamUntilFirstChunk(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest({ signal: controller.signal })), AUDIO_HEADERS, speech.subarray(0, half));
    controller.abort();
    await expectGatewayError(started.iterator.next(), 'TTS_ERR_CANCELLED');
    await started.answer.closedByClient;
  });

  it('maps an error status before the stream (a 401 with ElevenLabs\' body) to a coded error', async () => {
    const body = JSON.stringify({ detail: { status: 'invalid_api_key', message: 'Invalid API key' } });
    const error = await expectGatewayError(answerBeforeStream(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest()), 401, { 'content-type': 'application/json' }, body), 'TTS_ERR_UPSTREAM_AUTH');
    expect(error.details[0]).to.include({ providerCode: 'invalid_api_key' });
  });

  it('throws a coded error, not a clean end, when the connection breaks off mid-stream', async () => {
    const started = await streamUntilFirstChunk(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest()), AUDIO_HEADERS, speech.subarray(0, half));
    started.answer.cut();
    await expectGatewayError(readAll(started.iterator), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
  });
});
