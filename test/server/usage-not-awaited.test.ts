import { expect } from 'chai';
import express, { type ErrorRequestHandler, type Request, type Response } from 'express';
import request from 'supertest';
import winston from 'winston';
import { GatewayError, type AccountService, type SynthesisStream } from '../../core';
import type { StreamFunction } from '../../server/app-dependencies';
import { createSpeechRoute } from '../../server/openai/speech-route';
import { setPrincipal, setRequestId } from '../../server/request-context';
import { appliedPlan } from '../support/applied-plan';

/**
 * Usage rows are written in batches up to a second apart. A route that waited for its row's
 * batch kept the whole request (streams, signals, closures) alive that long, which under load
 * pushed a quarter of each request's allocations out of V8's young generation.
 */
describe('server: a synthesis route does not wait for its usage row or failure to be written', () => {
  const audio: StreamFunction = async (synthesisRequest) => {
    async function* chunks() {
      yield Buffer.from('audio');
    }
    const stream: SynthesisStream = { format: synthesisRequest.format, applied: appliedPlan(), provider: 'fake', servedBy: 'm/v', instructionsIgnored: false, progress: { bytes: 5 }, chunks: chunks() };
    return stream;
  };

  it('finishes its handler once the answer is sent, while the row is still queued', async () => {
    const queued: unknown[] = [];
    // A batch that is never written: the row stays queued for the whole test.
    const accounts = { recordUsage: (...row: unknown[]) => (queued.push(row), new Promise<void>(() => undefined)) } as unknown as AccountService;
    const route = createSpeechRoute({ accounts, stream: audio, logger: winston.createLogger({ silent: true }) });
    let handlerDone = false;
    const app = express();
    app.use(express.json());
    app.post('/v1/audio/speech', (req: Request, res: Response, next) => {
      setRequestId(res, 'request-1');
      setPrincipal(res, { account: { id: 'account-1', email: 'a@example.com' }, keyId: 'key-1' });
      route(req, res).then(() => (handlerDone = true), next);
    });

    const answer = await request(app).post('/v1/audio/speech').send({ model: 'tts-1', input: 'Hello', voice: 'alloy', response_format: 'mp3' });
    expect(answer.status).to.equal(200);
    // The handler's last steps run right after the answer's end; a few loop turns are plenty.
    for (let turn = 0; turn < 20 && !handlerDone; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(queued).to.have.length(1);
    expect(handlerDone, 'the handler still waits for the usage batch').to.equal(true);
  });

  it('answers a failed synthesis while its failure is still queued', async () => {
    const queued: unknown[] = [];
    const accounts = { recordFailedUsage: (...row: unknown[]) => (queued.push(row), new Promise<void>(() => undefined)) } as unknown as AccountService;
    const failing: StreamFunction = async () => {
      throw new GatewayError('TTS_ERR_UPSTREAM', 'provider failed');
    };
    const route = createSpeechRoute({ accounts, stream: failing, logger: winston.createLogger({ silent: true }) });
    const app = express();
    app.use(express.json());
    app.post('/v1/audio/speech', (req: Request, res: Response, next) => {
      setRequestId(res, 'request-2');
      setPrincipal(res, { account: { id: 'account-1', email: 'a@example.com' }, keyId: 'key-1' });
      route(req, res).catch(next);
    });
    app.use(((error, _req, res, _next) => res.status((error as GatewayError).status).end()) as ErrorRequestHandler);

    const answer = await request(app).post('/v1/audio/speech').send({ model: 'tts-1', input: 'Hello', voice: 'alloy', response_format: 'mp3' });
    expect(answer.status).to.equal(502);
    // No limits ran here: the row is dated when it is written.
    expect(queued).to.deep.equal([['account-1', 'tts-1', true, undefined]]);
  });
});
