import { expect } from 'chai';
import request from 'supertest';
import { failingAfterFirstPiece, postStreamToItsEnd } from './support/failing-stream';
import { buildTestApp, type TestApp, type TestAppOptions } from './support/test-app';

const SPEECH = { model: 'tts-1', input: 'Hello world', voice: 'alloy' };

describe('server /v1/audio/speech: a stream that fails after it began', () => {
  let testApp: TestApp;
  let apiKey: string;

  async function start(options: TestAppOptions): Promise<void> {
    testApp = await buildTestApp(options);
    ({ apiKey } = await testApp.register());
  }
  afterEach(() => testApp.close());

  const speech = (body: unknown) => request(testApp.app).post('/v1/audio/speech').set('Authorization', `Bearer ${apiKey}`).send(body as object);

  it('counts a stream that fails midway as a usage error: cut audio, SSE and tts-stream alike', async () => {
    await start({ stream: failingAfterFirstPiece });
    const failures: string[] = [];
    testApp.accounts.recordFailedUsage = async (_accountId, model) => {
      failures.push(model);
    };
    await speech(SPEECH).then(
      () => undefined,
      () => undefined,
    );
    await speech({ ...SPEECH, stream_format: 'sse' }).expect(200);
    await postStreamToItsEnd(testApp.app, apiKey);
    expect(failures).to.deep.equal(['tts-1', 'tts-1', 'espeak-ng']);
  });

  it('cuts the connection when the synthesis fails after the audio began', async () => {
    await start({ stream: failingAfterFirstPiece });
    const failure = await speech(SPEECH).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failure?.message).to.match(/aborted|socket hang up|ECONNRESET|premature/i);
    expect(testApp.logs.some((entry) => entry.message === 'stream failed after it began' && entry.code === 'TTS_ERR_UPSTREAM')).to.equal(true);
    // And the server keeps serving.
    await request(testApp.app).get('/v1/models').set('Authorization', `Bearer ${apiKey}`).expect(200);
  });

  it('logs a bug that breaks a started stream as an error: where it was thrown, no stack, no secret', async () => {
    await start({
      stream: async (synthesisRequest, context) => ({
        ...(await failingAfterFirstPiece(synthesisRequest, context)),
        chunks: (async function* () {
          yield Buffer.from('first piece');
          throw new TypeError('cannot read the token sk-proj-abcdefghijklmnop');
        })(),
      }),
    });
    await speech(SPEECH).then(
      () => undefined,
      () => undefined,
    );
    const logged = testApp.logs.find((entry) => entry.message === 'stream failed after it began');
    expect(logged).to.include({ level: 'error', code: 'TTS_ERR_INTERNAL', errorName: 'TypeError' });
    expect(logged?.errorMessage).to.equal('cannot read the token [redacted]');
    expect(logged?.thrownAt).to.match(/^test\/server\/openai-stream-failures\.test\.js:\d+$/);
    expect(logged).to.not.have.property('stack');
  });

  it('ends an SSE stream that fails midway with an error event', async () => {
    await start({ stream: failingAfterFirstPiece });
    const response = await speech({ ...SPEECH, stream_format: 'sse' }).expect(200);
    const events = response.text.split('\n\n').filter(Boolean).map((block) => JSON.parse(block.replace(/^data: /, '')) as { type: string; error?: { type: string; message: string } });
    expect(events.map((event) => event.type)).to.deep.equal(['speech.audio.delta', 'error']);
    expect(events[1].error).to.include({ type: 'server_error', message: 'the provider broke off' });
  });
});
