import { expect } from 'chai';
import OpenAI from 'openai';
import { Stream } from 'openai/streaming';
import { GatewayError, type ErrorCode } from '../../core';
import { failingAfterFirstPiece } from './support/failing-stream';
import { serveForSdk } from './support/sdk-server';
import { buildTestApp, type TestApp, type TestAppOptions } from './support/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The official SDK against the gateway's real HTTP server (its answers to what Node refuses
 * included): each error reaches it as its typed error, with `code`, `type`, `param` and the
 * request id (`error.requestID`, from `x-request-id`) filled in.
 */
describe('server /v1 with the official SDK: its error answers', () => {
  let testApp: TestApp;
  let apiKey: string;
  let served: Awaited<ReturnType<typeof serveForSdk>>;
  let baseURL: string;

  async function start(options: TestAppOptions = {}): Promise<void> {
    testApp = await buildTestApp(options);
    ({ apiKey } = await testApp.register());
    served = await serveForSdk(testApp);
    ({ baseURL } = served);
  }
  afterEach(async () => {
    await served.close();
    await testApp.close();
  });

  const failure = (promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> =>
    promise.then(
      () => expect.fail('the call succeeded'),
      (error: unknown) => error as InstanceType<typeof OpenAI.APIError>,
    );

  it('gives headers over the size limit (431, answered before the app sees the request) a request id', async () => {
    await start();
    const client = new OpenAI({ apiKey, baseURL, maxRetries: 0, defaultHeaders: { 'x-large': 'a'.repeat(20_000) } });
    const error = await failure(client.models.list());
    expect(error).to.be.instanceOf(OpenAI.APIError);
    expect(error).to.include({ status: 431, type: 'invalid_request_error', param: null, code: null });
    expect(error.requestID).to.match(UUID);
  });

  it('names an unknown /v1 path or method as the client sent it, /v1 included', async () => {
    await start();
    const client = new OpenAI({ apiKey, baseURL, maxRetries: 0 });
    const unknownPath = await failure(client.get('/engines'));
    expect(unknownPath).to.be.instanceOf(OpenAI.NotFoundError);
    expect(unknownPath).to.include({ type: 'invalid_request_error', param: null, code: null });
    expect(unknownPath.message).to.equal('404 No such route for GET /v1/engines');
    const unknownMethod = await failure(client.models.delete('tts-1'));
    expect(unknownMethod).to.be.instanceOf(OpenAI.NotFoundError);
    expect(unknownMethod.message).to.equal('404 No such route for DELETE /v1/models/tts-1');
    expect(unknownMethod.requestID).to.match(UUID);
  });

  const SPEECH = { model: 'tts-1', input: 'Hello world', voice: 'alloy' } as const;
  const typed: [ErrorCode, number, new (...args: never[]) => Error, string][] = [
    ['TTS_ERR_FORBIDDEN', 403, OpenAI.PermissionDeniedError, 'permission_error'],
    ['TTS_ERR_RATE_LIMITED', 429, OpenAI.RateLimitError, 'requests'],
    ['TTS_ERR_UPSTREAM', 502, OpenAI.InternalServerError, 'server_error'],
    ['TTS_ERR_UNAVAILABLE', 503, OpenAI.InternalServerError, 'server_error'],
    ['TTS_ERR_TIMEOUT', 504, OpenAI.InternalServerError, 'server_error'],
  ];
  for (const [code, status, errorClass, type] of typed) {
    it(`raises ${errorClass.name} (${status}, type ${type}) with its request id for ${code}`, async () => {
      await start({
        stream: async () => {
          throw new GatewayError(code, 'refused');
        },
      });
      const error = await failure(new OpenAI({ apiKey, baseURL, maxRetries: 0 }).audio.speech.create(SPEECH));
      expect(error).to.be.instanceOf(errorClass);
      expect(error).to.include({ status, type, param: null });
      expect(error.requestID).to.match(UUID);
    });
  }

  it('raises BadRequestError naming the field for a body that is invalid, an array, or not JSON', async () => {
    await start();
    const client = new OpenAI({ apiKey, baseURL, maxRetries: 0 });
    const speed = await failure(client.audio.speech.create({ ...SPEECH, speed: 9 }));
    expect(speed).to.be.instanceOf(OpenAI.BadRequestError);
    expect(speed).to.include({ type: 'invalid_request_error', param: 'speed' });
    for (const body of [[1, 2], 'hello']) {
      const error = await failure(client.post('/audio/speech', { body }));
      expect(error, JSON.stringify(body)).to.be.instanceOf(OpenAI.BadRequestError);
      expect(error.requestID).to.match(UUID);
    }
  });

  it('tells a request that sent no key (code null) from one with a wrong key (invalid_api_key), both AuthenticationError, as OpenAI does', async () => {
    await start();
    // The SDK insists on a key; a null header is its way to send none.
    const noKey = await failure(new OpenAI({ apiKey: 'unused', baseURL, maxRetries: 0, defaultHeaders: { authorization: null } }).audio.speech.create(SPEECH));
    expect(noKey).to.be.instanceOf(OpenAI.AuthenticationError);
    expect(noKey).to.include({ status: 401, type: 'invalid_request_error', param: null, code: null });
    for (const wrong of ['ttsg_wrongwrongwrongwrongwrongwrongwrongwrongwro', 'sk-proj-an-openai-key-sent-by-mistake']) {
      const wrongKey = await failure(new OpenAI({ apiKey: wrong, baseURL, maxRetries: 0 }).audio.speech.create(SPEECH));
      expect(wrongKey, wrong).to.be.instanceOf(OpenAI.AuthenticationError);
      expect(wrongKey, wrong).to.include({ status: 401, type: 'invalid_request_error', param: null, code: 'invalid_api_key' });
    }
  });

  it('gives a response_format not in the list the code of a format the gateway cannot make (invalid_value), and other invalid fields code null', async () => {
    await start();
    const client = new OpenAI({ apiKey, baseURL, maxRetries: 0 });
    const format = await failure(client.audio.speech.create({ ...SPEECH, response_format: 'ogg' as 'mp3' }));
    expect(format).to.be.instanceOf(OpenAI.BadRequestError);
    expect(format).to.include({ type: 'invalid_request_error', param: 'response_format', code: 'invalid_value' });
    const invalid: [string, Record<string, unknown>, string][] = [
      ['no input', { model: 'tts-1', voice: 'alloy' }, 'input'],
      ['an input too long', { ...SPEECH, input: 'a'.repeat(10_001) }, 'input'],
      ['a speed out of range', { ...SPEECH, speed: 9 }, 'speed'],
    ];
    for (const [label, body, param] of invalid) {
      const error = await failure(client.post('/audio/speech', { body }));
      expect(error, label).to.be.instanceOf(OpenAI.BadRequestError);
      expect(error, label).to.include({ type: 'invalid_request_error', param, code: null });
    }
  });

  it('takes the custom voice object { id } and tells a wrong one what is wrong with it, not that a voice must be a string', async () => {
    await start();
    const client = new OpenAI({ apiKey, baseURL, maxRetries: 0 });
    const audio = await client.audio.speech.create({ ...SPEECH, voice: { id: 'voice_1234' } });
    expect(audio.status).to.equal(200);
    expect(testApp.synthesisCalls.map((call) => call.request.voice)).to.deep.equal(['voice_1234']);
    const wrong: [string, unknown, string, string][] = [
      ['a field besides id', { id: 'voice_1234', name: 'mine' }, 'voice.name', 'Unknown field "voice.name"'],
      ['no id', {}, 'voice.id', 'voice.id is required'],
      ['an empty id', { id: '' }, 'voice.id', 'voice.id must be between 1 and 200 characters long'],
      ['a number', 7, 'voice', 'voice must be a string or a JSON object'],
    ];
    for (const [label, voice, param, message] of wrong) {
      const error = await failure(client.post('/audio/speech', { body: { ...SPEECH, voice } }));
      expect(error, label).to.be.instanceOf(OpenAI.BadRequestError);
      expect(error, label).to.include({ type: 'invalid_request_error', param, code: null, message: `400 ${message}` });
    }
    expect(testApp.synthesisCalls).to.have.length(1);
  });

  it("reads the models through the SDK's list page and retrieve, with the request id", async () => {
    await start();
    const client = new OpenAI({ apiKey, baseURL, maxRetries: 0 });
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).to.deep.equal(['espeak-ng', 'tts-1']);
    const { data, request_id } = await client.models.retrieve('tts-1').withResponse();
    expect(data).to.deep.equal({ id: 'tts-1', object: 'model', created: 1_795_000_000, owned_by: 'fake' });
    expect(request_id).to.match(UUID);
  });

  it('retrieves a model whose id has a slash, sent encoded (this SDK) or not (the Python SDK), and answers an unknown one model_not_found', async () => {
    await start({ listModels: async () => ['tts-1', 'piper/en_US-amy-low'] });
    const client = new OpenAI({ apiKey, baseURL, maxRetries: 0 });
    const model = { id: 'piper/en_US-amy-low', object: 'model', created: 1_795_000_000, owned_by: 'fake' };
    expect(await client.models.retrieve('piper/en_US-amy-low')).to.deep.equal(model);
    // openai-python writes the id into the path as it is (f"/models/{model}").
    expect(await client.get('/models/piper/en_US-amy-low')).to.deep.equal(model);
    expect(await client.get('/models/tts-1/')).to.include({ id: 'tts-1' });
    for (const unknown of ['piper/nobody', 'a/b/c']) {
      const error = await failure(client.get(`/models/${unknown}`));
      expect(error, unknown).to.be.instanceOf(OpenAI.NotFoundError);
      expect(error, unknown).to.include({ type: 'invalid_request_error', param: 'model', code: 'model_not_found' });
      expect(error.message, unknown).to.equal(`404 The gateway has no model '${unknown}'`);
    }
  });

  it("parses the SSE events with the SDK's own parser: deltas, then done with integer usage", async () => {
    await start();
    const response = await new OpenAI({ apiKey, baseURL, maxRetries: 0 }).audio.speech.create({ ...SPEECH, stream_format: 'sse' });
    const events: { type: string; audio?: string; usage?: Record<string, number> }[] = [];
    for await (const event of Stream.fromSSEResponse<(typeof events)[number]>(response, new AbortController())) events.push(event);
    expect(events.map((event) => event.type)).to.deep.equal(['speech.audio.delta', 'speech.audio.delta', 'speech.audio.done']);
    expect(events.at(-1)?.usage).to.deep.equal({ input_tokens: 11, output_tokens: 0, total_tokens: 11 });
  });

  it("ends a failing SSE stream with an error event the SDK's parser raises as an APIError", async () => {
    await start({ stream: failingAfterFirstPiece });
    const response = await new OpenAI({ apiKey, baseURL, maxRetries: 0 }).audio.speech.create({ ...SPEECH, stream_format: 'sse' });
    const types: string[] = [];
    const error = await failure(
      (async () => {
        for await (const event of Stream.fromSSEResponse<{ type: string }>(response, new AbortController())) types.push(event.type);
      })(),
    );
    expect(types).to.deep.equal(['speech.audio.delta']);
    expect(error).to.be.instanceOf(OpenAI.APIError);
    expect(error).to.include({ type: 'server_error', param: null, code: null, message: 'the provider broke off' });
    expect(error.requestID).to.match(UUID);
  });
});
