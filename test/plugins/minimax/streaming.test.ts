import { expect } from 'chai';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { readAll } from '../../support/http-stand-in';
import { answerBeforeStream, standInProvider, streamUntilFirstChunk } from '../../support/streaming-flow';
import { createProvider, synthesisRequest, TEST_KEY } from './harness';
import { recordedHexAudio, streamedT2aEvents, t2aEvent } from './stand-in';

/** Real speech (hex, as MiniMax sends it) in three audio events and a closing one. */
const hex = recordedHexAudio('synthesize-mp3');
const speech = Buffer.from(hex, 'hex');
const events = streamedT2aEvents(hex, 'mp3', 32000);
const EVENT_STREAM = { 'content-type': 'text/event-stream' };
const audioOf = (event: string) => Buffer.from((JSON.parse(event.slice('data: '.length)) as { data: { audio: string } }).data.audio, 'hex');

describe('minimax plugin: native streaming (stream: true, server-sent events) against a local stand-in', () => {
  const suite = standInProvider((baseUrl) => createProvider({ baseUrl }));

  it('posts stream: true without the aggregated audio and hands on each event\'s audio before the last event is sent', async () => {
    const started = await streamUntilFirstChunk(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest({ speed: 1.2 })), EVENT_STREAM, events[0]);
    const { request } = started;
    expect(request.method).to.equal('POST');
    expect(request.path).to.equal('/v1/t2a_v2');
    expect(request.headers.authorization).to.equal(`Bearer ${TEST_KEY}`);
    expect(request.headers['content-type']).to.equal('application/json');
    expect(JSON.parse(request.body.toString())).to.deep.equal({
      model: 'speech-2.8-hd',
      text: 'Hello from MiniMax.',
      stream: true,
      stream_options: { exclude_aggregated_audio: true },
      voice_setting: { voice_id: 'English_Graceful_Lady', speed: 1.2 },
      audio_setting: { sample_rate: 32000, bitrate: 128000, format: 'mp3', channel: 1 },
    });
    expect(Buffer.from(started.first).equals(audioOf(events[0]))).to.equal(true);
    expect(started.stream.format).to.equal('mp3');

    await started.answer.send(events[1]);
    expect(Buffer.from((await started.iterator.next()).value as Uint8Array).equals(audioOf(events[1]))).to.equal(true);
    await started.answer.end(events.slice(2).join(''));
    const rest = await readAll(started.iterator);
    expect(Buffer.concat([started.first, audioOf(events[1]), rest]).equals(speech)).to.equal(true);
  });

  it('reads an event split across two TCP pieces (the second sent only after the first was consumed)', async () => {
    const cut = Math.floor(events[1].length / 2);
    const started = await streamUntilFirstChunk(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest()), EVENT_STREAM, events[0] + events[1].slice(0, cut));
    expect(Buffer.from(started.first).equals(audioOf(events[0]))).to.equal(true);
    await started.answer.send(events[1].slice(cut));
    expect(Buffer.from((await started.iterator.next()).value as Uint8Array).equals(audioOf(events[1]))).to.equal(true);
    await started.answer.end(events.slice(2).join(''));
    expect(Buffer.concat([started.first, audioOf(events[1]), await readAll(started.iterator)]).equals(speech)).to.equal(true);
  });

  it('streams pcm at the configured rate', async () => {
    const pcmEvents = streamedT2aEvents('00'.repeat(640), 'pcm', 32000);
    const started = await streamUntilFirstChunk(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest({ format: 'pcm' })), EVENT_STREAM, pcmEvents[0]);
    expect(started.stream).to.include({ format: 'pcm', sampleRate: 32000 });
    await started.answer.end(pcmEvents.slice(1).join(''));
    expect(started.first.byteLength + (await readAll(started.iterator)).byteLength).to.equal(640);
  });

  it('throws the coded error of a failure event that comes before any audio when the stream starts', async () => {
    const failure = t2aEvent({ base_resp: { status_code: 1002, status_msg: 'rate limit exceeded(RPM)' }, trace_id: 't' });
    const answer = suite.standIn.nextAnswer();
    const opening = suite.provider.synthesizeStream!(synthesisRequest());
    await answer.request;
    answer.head(200, EVENT_STREAM);
    await answer.end(failure);
    const error = await expectGatewayError(opening, 'TTS_ERR_RATE_LIMITED');
    expect(error.retryAfterSeconds).to.equal(60);
  });

  it('throws the coded error of a failure event that comes mid-stream', async () => {
    const started = await streamUntilFirstChunk(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest()), EVENT_STREAM, events[0]);
    await started.answer.end(t2aEvent({ base_resp: { status_code: 1001, status_msg: 'request timeout' }, trace_id: 't' }));
    await expectGatewayError(readAll(started.iterator), 'TTS_ERR_TIMEOUT');
  });

  it('reads a plain JSON failure answered instead of events', async () => {
    const body = JSON.stringify({ base_resp: { status_code: 2049, status_msg: 'invalid api key' } });
    await expectGatewayError(answerBeforeStream(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest()), 200, { 'content-type': 'application/json' }, body), 'TTS_ERR_UPSTREAM_AUTH');
  });

  it('maps an HTTP error status before the stream to a coded error', async () => {
    const body = JSON.stringify({ base_resp: { status_code: 1008, status_msg: 'insufficient balance' } });
    await expectGatewayError(answerBeforeStream(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest()), 402, { 'content-type': 'application/json' }, body), 'TTS_ERR_UPSTREAM_QUOTA');
  });

  it('throws, not a shorter clip, when the answer ends without the closing event', async () => {
    const started = await streamUntilFirstChunk(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest()), EVENT_STREAM, events[0]);
    await started.answer.end(events[1]);
    await expectGatewayError(readAll(started.iterator), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
  });

  it('throws a coded error, not a clean end, when the connection breaks off mid-stream', async () => {
    const started = await streamUntilFirstChunk(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest()), EVENT_STREAM, events[0]);
    started.answer.cut();
    await expectGatewayError(readAll(started.iterator), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
  });

  it('stops reading the answer when the request is cancelled mid-stream', async () => {
    const controller = new AbortController();
    const started = await streamUntilFirstChunk(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest({ signal: controller.signal })), EVENT_STREAM, events[0]);
    controller.abort();
    await expectGatewayError(started.iterator.next(), 'TTS_ERR_CANCELLED');
    await started.answer.closedByClient;
  });

  it('makes one non-streaming call for wav, which MiniMax does not stream, and hands the file on whole', async () => {
    const wavHex = recordedHexAudio('synthesize-wav-group');
    const answer = suite.standIn.nextAnswer();
    const opening = suite.provider.synthesizeStream!(synthesisRequest({ format: 'wav' }));
    const request = await answer.request;
    expect(JSON.parse(request.body.toString())).to.include({ stream: false, output_format: 'hex' });
    await answer.answer(200, { 'content-type': 'application/json' }, JSON.stringify({ data: { audio: wavHex, status: 2 }, extra_info: { audio_format: 'wav' }, base_resp: { status_code: 0, status_msg: 'success' } }));
    const stream = await opening;
    expect(stream.format).to.equal('wav');
    expect(Buffer.from(await readAll(stream.chunks)).equals(Buffer.from(wavHex, 'hex'))).to.equal(true);
  });
});
