import { expect } from 'chai';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { readAll } from '../../support/http-stand-in';
import { recordedAudio } from '../../support/recorded-audio';
import { answerBeforeStream, isLeadingPart, standInProvider, streamUntilFirstChunk } from '../../support/streaming-flow';
import { createProvider, synthesisRequest, VOICE } from './harness';

/** Real speech from the recorded WAV answer, sent by the stand-in in two pieces. */
const speech = recordedAudio('cartesia', 'synthesize-wav');
const half = Math.floor(speech.byteLength / 2);

describe('cartesia plugin: native streaming (/tts/bytes read as it arrives) against a local stand-in', () => {
  const suite = standInProvider((baseUrl) => createProvider({ baseUrl, language: 'en' }));

  it('posts the same /tts/bytes call as synthesize and hands on the first bytes before the last piece is sent', async () => {
    const started = await streamUntilFirstChunk(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest({ format: 'wav', speed: 1.2 })), { 'content-type': 'audio/wav' }, speech.subarray(0, half));
    expect(started.request.method).to.equal('POST');
    expect(started.request.path).to.equal('/tts/bytes');
    expect(started.request.headers.authorization).to.equal('Bearer sk_car_test0123456789');
    expect(started.request.headers['cartesia-version']).to.equal('2026-03-01');
    expect(started.request.headers['content-type']).to.equal('application/json');
    expect(JSON.parse(started.request.body.toString())).to.deep.equal({
      model_id: 'sonic-3',
      transcript: 'Hello from Cartesia.',
      voice: { mode: 'id', id: VOICE },
      output_format: { container: 'wav', encoding: 'pcm_s16le', sample_rate: 44100 },
      language: 'en',
      generation_config: { speed: 1.2 },
    });
    expect(isLeadingPart(started.first, speech.subarray(0, half))).to.equal(true);
    expect(started.stream.format).to.equal('wav');

    await started.answer.end(speech.subarray(half));
    const rest = await readAll(started.iterator);
    expect(Buffer.concat([started.first, rest]).equals(Buffer.from(speech))).to.equal(true);
  });

  it('streams raw pcm with the configured sample rate', async () => {
    const started = await streamUntilFirstChunk(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest({ format: 'pcm' })), { 'content-type': 'application/octet-stream' }, new Uint8Array(882));
    expect(JSON.parse(started.request.body.toString()).output_format).to.deep.equal({ container: 'raw', encoding: 'pcm_s16le', sample_rate: 44100 });
    expect(started.stream).to.include({ format: 'pcm', sampleRate: 44100 });
    await started.answer.end(new Uint8Array(882));
    expect((await readAll(started.iterator)).byteLength + started.first.byteLength).to.equal(1764);
  });

  it('stops reading the answer when the request is cancelled mid-stream', async () => {
    const controller = new AbortController();
    const started = await streamUntilFirstChunk(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest({ format: 'wav', signal: controller.signal })), { 'content-type': 'audio/wav' }, speech.subarray(0, half));
    controller.abort();
    await expectGatewayError(started.iterator.next(), 'TTS_ERR_CANCELLED');
    await started.answer.closedByClient;
  });

  it('maps an error status before the stream (a 402 with Cartesia\'s body) to a coded error', async () => {
    const body = JSON.stringify({ error_code: 'payment_required', title: 'Payment Required', message: 'Out of credits.', request_id: 'r-1' });
    const error = await expectGatewayError(answerBeforeStream(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest()), 402, { 'content-type': 'application/json' }, body), 'TTS_ERR_UPSTREAM_QUOTA');
    expect(error.details[0]).to.include({ providerCode: 'payment_required' });
  });

  it('throws a coded error, not a clean end, when the connection breaks off mid-stream', async () => {
    const started = await streamUntilFirstChunk(suite.standIn, () => suite.provider.synthesizeStream!(synthesisRequest({ format: 'wav' })), { 'content-type': 'audio/wav' }, speech.subarray(0, half));
    started.answer.cut();
    await expectGatewayError(readAll(started.iterator), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
  });
});
