import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import request from 'supertest';
import { GatewayError } from '../../core';
import { eventually } from '../support/eventually';
import { fakeStream } from './support/failing-stream';
import { rawStreamRequest } from './support/raw-stream-request';
import { buildTestApp, type TestApp } from './support/test-app';

/** The daily characters these apps allow: one 25-character request fits, two do not. */
const CHARACTERS_PER_DAY = 30;

/** How the fake provider's stream goes, by the text's first letter. */
type StreamPlan = 'first-piece-then-wait' | 'wait-before-any-piece' | 'first-piece-then-fail';
const PLANS: Record<string, StreamPlan> = { a: 'first-piece-then-wait', b: 'wait-before-any-piece', c: 'first-piece-then-fail' };

/**
 * Characters per day and a client that leaves a stream: one that leaves once the audio flows
 * has taken what it was admitted for (the provider made it, the client got it), so it keeps
 * them counted; one that leaves before any audio, or a stream the gateway breaks off, gets them back.
 */
describe('server limits: the characters of a stream its client leaves', function () {
  this.timeout(20_000);
  let testApp: TestApp;
  let server: Server;
  let port: number;
  let apiKey: string;
  /** Ends the streams that wait, once the test is done with them. */
  let release: () => void;
  let streamsStarted: number;
  /** Makes the streams that fail fail, once their first bytes have reached the client. */
  let breakOff: () => void;

  /** The stream's access-log line, written when its answer ended (on the same 'close' the limits hear). */
  const streamAnswerLogged = (): boolean => testApp.logs.some((entry) => entry.message === 'request' && entry.route === '/api/v1/common/tts-stream');

  beforeEach(async () => {
    const released = new Promise<void>((resolve) => (release = resolve));
    const brokenOff = new Promise<void>((resolve) => (breakOff = resolve));
    streamsStarted = 0;
    testApp = await buildTestApp({
      limits: { charactersPerDay: CHARACTERS_PER_DAY, perKey: {} },
      stream: async (synthesisRequest) => {
        const plan = PLANS[synthesisRequest.text[0]];
        streamsStarted += 1;
        async function* chunks() {
          if (plan === 'wait-before-any-piece') await released;
          yield Buffer.from('first audio');
          if (plan === 'first-piece-then-fail') await brokenOff;
          if (plan === 'first-piece-then-fail') throw new GatewayError('TTS_ERR_UPSTREAM', 'the provider broke off');
          if (plan === 'first-piece-then-wait') await released;
        }
        return fakeStream(synthesisRequest, chunks());
      },
    });
    ({ apiKey } = await testApp.register());
    server = testApp.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    ({ port } = server.address() as AddressInfo);
  });

  afterEach(async () => {
    release();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await testApp.close();
  });

  /** Starts a tts-stream of 25 characters on a raw connection; answers the request and its first body bytes (if any come). */
  const streamOf = (firstLetter: string) => rawStreamRequest(port, '/api/v1/common/tts-stream', apiKey, { model: 'espeak-ng', voice: 'en-us', text: firstLetter.repeat(25) });

  /** Whether 25 more characters still fit today. */
  async function twentyFiveMoreFit(): Promise<boolean> {
    const answer = await request(server).post('/api/v1/common/tts-sync').set('X-API-Key', apiKey).send({ model: 'espeak-ng', voice: 'en-us', text: 'z'.repeat(25) });
    expect([200, 429, 502]).to.include(answer.status);
    return answer.status !== 429;
  }

  it('keeps the characters counted for a client that leaves once the audio flows, so leaving cannot get around the daily quota', async () => {
    const { client, firstBytes } = streamOf('a');
    expect((await firstBytes).toString()).to.equal('first audio');
    client.destroy();
    // Its access-log line is written on the same 'close' the limits hear: by then any refund was made.
    await eventually(() => void expect(streamAnswerLogged()).to.equal(true));
    expect(await twentyFiveMoreFit()).to.equal(false);
  });

  it('gives the characters back to a client that leaves before any audio was sent', async () => {
    const { client } = streamOf('b');
    await eventually(() => void expect(streamsStarted).to.equal(1));
    client.destroy();
    await eventually(() => void expect(streamAnswerLogged()).to.equal(true));
    expect(await twentyFiveMoreFit()).to.equal(true);
  });

  it('gives the characters back to a raw audio stream the gateway breaks off after its first bytes (a failed request)', async () => {
    const { firstBytes } = streamOf('c');
    await firstBytes;
    breakOff();
    await eventually(() => void expect(streamAnswerLogged()).to.equal(true));
    expect(await twentyFiveMoreFit()).to.equal(true);
  });
});
