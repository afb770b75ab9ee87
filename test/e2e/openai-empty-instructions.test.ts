import { expect } from 'chai';
import request from 'supertest';
import type { Application } from 'express';
import { startTestGateway } from './gateway-harness';

/**
 * `instructions: ""` asks for no style at all: it is the request without instructions, so it
 * shares that request's cached answer and is not reported as instructions ignored.
 */
describe('e2e: /v1/audio/speech with empty instructions', function () {
  this.timeout(60_000);
  let app: Application;
  let dispose: () => Promise<void>;
  let apiKey: string;

  before(async () => {
    const started = await startTestGateway();
    ({ dispose } = started);
    app = started.gateway.app;
    const registered = await request(app).post('/api/v1/auth/register').send({ email: 'style@example.com', password: 'password-123' }).expect(200);
    apiKey = registered.body.data.apiKey;
  });
  after(() => dispose());

  const speech = (body: object) => request(app).post('/v1/audio/speech').set('Authorization', `Bearer ${apiKey}`).send({ model: 'tts-1', voice: 'alloy', response_format: 'wav', ...body }).expect(200);

  it('is answered as the request without instructions: no X-TTS-Instructions, and one cached answer for both', async () => {
    const empty = await speech({ input: 'Nothing to say about the style.', instructions: '' });
    expect(empty.headers['x-tts-instructions']).to.equal(undefined);
    expect(empty.headers['x-tts-cache']).to.equal('miss');
    const without = await speech({ input: 'Nothing to say about the style.' });
    expect(without.headers['x-tts-cache']).to.equal('hit');
    // Instructions that say something are still reported as ignored by a model that takes none.
    const styled = await speech({ input: 'Nothing to say about the style.', instructions: 'Whisper.' });
    expect(styled.headers['x-tts-instructions']).to.match(/^ignored/);
  });
});
