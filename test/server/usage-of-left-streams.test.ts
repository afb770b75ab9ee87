import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import request from 'supertest';
import type { UsageTotals } from '../../core';
import type { StreamFunction, SynthesizeFunction } from '../../server/app-dependencies';
import { appliedPlan } from '../support/applied-plan';
import { eventually } from '../support/eventually';
import { fakeStream } from './support/failing-stream';
import { rawStreamRequest } from './support/raw-stream-request';
import { buildTestApp, type TestApp } from './support/test-app';

/** The daily characters these apps allow: one 25-character request fits, two do not. */
const CHARACTERS_PER_DAY = 30;
const TEXT = 'a'.repeat(25);

/** One synthesis route as a client streams from it. */
interface StreamingRoute {
  readonly name: string;
  readonly path: string;
  readonly body: object;
}

const ROUTES: readonly StreamingRoute[] = [
  { name: '/api/v1/common/tts-stream', path: '/api/v1/common/tts-stream', body: { model: 'espeak-ng', voice: 'en-us', text: TEXT } },
  { name: '/v1/audio/speech (audio)', path: '/v1/audio/speech', body: { model: 'tts-1', voice: 'alloy', input: TEXT, response_format: 'mp3' } },
  { name: '/v1/audio/speech (SSE)', path: '/v1/audio/speech', body: { model: 'tts-1', voice: 'alloy', input: TEXT, response_format: 'mp3', stream_format: 'sse' } },
];

/**
 * What a client that leaves a stream is billed for: the daily quota keeps the characters of a
 * stream whose audio had begun (leaving must not get around it), so its usage row records them
 * too, as a request that is no error; one that leaves before any audio gets them back, and its row has none.
 */
describe('server usage: the row of a request its client leaves agrees with the daily quota', function () {
  this.timeout(20_000);
  let testApp: TestApp;
  let server: Server;
  let port: number;
  let apiKey: string;
  let accountId: string;
  let clock: number;
  /** Ends the streams that wait, once a test lets them. */
  let release: () => void;

  /** A provider that sends one piece (unless told to wait first), then waits until released or the client leaves (then it stops, as a provider's stream does on the abort). */
  const provider = (audioFirst: boolean): StreamFunction => {
    const released = new Promise<void>((resolve) => (release = resolve));
    return async (synthesisRequest, context) => {
      const progress = { bytes: 0, durationSeconds: 0 };
      const aborted = new Promise<never>((_, reject) => context.signal?.addEventListener('abort', () => reject(context.signal?.reason), { once: true }));
      aborted.catch(() => undefined);
      async function* chunks() {
        if (!audioFirst) await Promise.race([released, aborted]);
        progress.bytes += 11;
        progress.durationSeconds += 0.5;
        yield Buffer.from('first audio');
        await Promise.race([released, aborted]);
      }
      return { ...fakeStream(synthesisRequest, chunks()), progress };
    };
  };

  /** A synthesis that cannot be called off (a local engine): it finishes once released, whoever is still waiting. */
  const uncancellableSynthesis = (): SynthesizeFunction => {
    const released = new Promise<void>((resolve) => (release = resolve));
    return async (synthesisRequest) => {
      await released;
      const saved = await testApp.audioStore.save(Buffer.from('audio'), synthesisRequest.format);
      return { ...saved, format: synthesisRequest.format, applied: appliedPlan(), provider: 'fake', servedBy: 'm/v', instructionsIgnored: false };
    };
  };

  async function start(audioFirst: boolean, synthesize?: SynthesizeFunction): Promise<void> {
    clock = Date.UTC(2026, 0, 10, 12);
    const limits = { charactersPerDay: CHARACTERS_PER_DAY, perKey: {} };
    // One provider waits per test: each sets `release`.
    const stream = synthesize ? undefined : provider(audioFirst);
    testApp = await buildTestApp({ limits, now: () => clock, stream, synthesize, storedDayCharacters: true });
    ({ apiKey, accountId } = await testApp.register());
    server = testApp.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    ({ port } = server.address() as AddressInfo);
  }

  afterEach(async () => {
    release();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await testApp.close();
  });

  /** Starts a stream on a raw connection; answers the request and its first body bytes (if any come). */
  const streamOf = (route: StreamingRoute) => rawStreamRequest(port, route.path, apiKey, route.body);

  /** Whether 25 more characters still fit today. */
  async function twentyFiveMoreFit(): Promise<boolean> {
    const answer = await request(server).post('/api/v1/common/tts-sync').set('X-API-Key', apiKey).send({ model: 'espeak-ng', voice: 'en-us', text: 'z'.repeat(25) });
    expect([200, 429]).to.include(answer.status);
    return answer.status !== 429;
  }

  /** The account's usage once the left stream's row was written. */
  async function usageOnceRecorded(): Promise<UsageTotals> {
    let totals: UsageTotals | undefined;
    await eventually(async () => {
      totals = (await testApp.accounts.usageReport(accountId)).totals;
      expect(totals.requests).to.equal(1);
    });
    return totals as UsageTotals;
  }

  for (const route of ROUTES) {
    it(`${route.name}: a client that leaves once the audio flows is billed the characters the quota kept`, async () => {
      await start(true);
      const { client, firstBytes } = streamOf(route);
      await firstBytes;
      client.destroy();
      const totals = await usageOnceRecorded();
      expect(totals).to.deep.include({ requests: 1, characters: 25, errors: 0, audioSeconds: 0.5 });
      expect(await twentyFiveMoreFit()).to.equal(false);
    });

    it(`${route.name}: a client that leaves before any audio is billed nothing, and gets its characters back`, async () => {
      await start(false);
      const { client } = streamOf(route);
      await eventually(() => void expect(testApp.synthesisCalls).to.have.length(1));
      client.destroy();
      const totals = await usageOnceRecorded();
      expect(totals).to.deep.include({ requests: 1, characters: 0, errors: 0 });
      expect(await twentyFiveMoreFit()).to.equal(true);
    });
  }

  it('counts a stream that crosses midnight (UTC) on the day its characters were charged, in the quota and the usage alike', async () => {
    await start(true);
    clock = Date.UTC(2026, 0, 10, 23, 59, 59);
    const { firstBytes } = streamOf(ROUTES[0]);
    await firstBytes;
    clock = Date.UTC(2026, 0, 11, 0, 0, 1);
    release();
    const report = await (async () => {
      await eventually(async () => {
        expect((await testApp.accounts.usageReport(accountId)).totals.requests).to.equal(1);
      });
      return testApp.accounts.usageReport(accountId, { from: '2026-01-10', to: '2026-01-11' });
    })();
    expect(report.byDay.map((day) => [day.date, day.characters])).to.deep.equal([['2026-01-10', 25]]);
    // The new day's quota is whole: the stream was charged to the day before. Its counter opens
    // with the day's stored characters, which must not hold the stream's a second time.
    expect(await twentyFiveMoreFit()).to.equal(true);
  });

  it('/api/v1/common/tts-sync: a client that leaves before its answer is billed nothing, as its characters were given back', async () => {
    await start(true, uncancellableSynthesis());
    const { client } = streamOf({ name: 'tts-sync', path: '/api/v1/common/tts-sync', body: { model: 'espeak-ng', voice: 'en-us', text: TEXT } });
    await eventually(() => void expect(testApp.synthesisCalls).to.have.length(1));
    client.destroy();
    // The limits heard the 'close' (and refunded) before the synthesis finishes.
    await eventually(() => void expect(testApp.logs.some((entry) => entry.message === 'request' && entry.route === '/api/v1/common/tts-sync')).to.equal(true));
    release();
    const totals = await usageOnceRecorded();
    expect(totals).to.deep.include({ requests: 1, characters: 0, errors: 0 });
    expect(await twentyFiveMoreFit()).to.equal(true);
  });
});
