import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import request, { type Response } from 'supertest';
import type { AudioStore, FileSystemAudioStore, LocatedAudio, ReadOptions } from '../../core';
import { eventually } from '../support/eventually';
import { buildTestApp, expectErrorEnvelope, type TestApp } from './support/test-app';

/** `storage.readTimeout` of these apps: short, so that a wait past it shows at once. */
const READ_TIMEOUT_MS = 300;
/** A download slower than this waited for the stalled store rather than for its deadline. */
const BOUND_MS = 3_000;
const BYTES = Buffer.from(Array.from({ length: 1000 }, (_, index) => index % 256));

/** Which step of the folder store never answers (a stalled S3, a hung mount), and the signals it was given. */
interface StallingStore {
  stall: 'nothing' | 'locate' | 'open';
  /** The bytes after the first 100 arrive this long after them (a slow store, or a slow network). */
  restDelayMs: number;
  readonly signals: (AbortSignal | undefined)[];
}

function stallingStore(folderStore: FileSystemAudioStore, control: StallingStore): AudioStore {
  const never = new Promise<never>(() => undefined);
  return {
    save: (...args) => folderStore.save(...args),
    sweep: () => folderStore.sweep(),
    checkWritable: () => folderStore.checkWritable(),
    startSweeper: (intervalMs) => folderStore.startSweeper(intervalMs),
    locate: async (fileName: string, options?: ReadOptions): Promise<LocatedAudio | undefined> => {
      control.signals.push(options?.signal);
      // Heeds no signal: the deadline must hold even for a store that does not stop by itself.
      if (control.stall === 'locate') return never;
      const located = await folderStore.locate(fileName);
      if (!located) return undefined;
      return {
        ...located,
        open: async (range, openOptions) => {
          control.signals.push(openOptions?.signal);
          if (control.stall === 'open') return never;
          const stream = await located.open(range, openOptions);
          if (control.restDelayMs === 0) return stream;
          return slowAfterFirstBytes(stream, control.restDelayMs);
        },
      };
    },
  };
}

/** The first 100 bytes at once, the rest `delayMs` later. */
function slowAfterFirstBytes(stream: Readable, delayMs: number): Readable {
  return Readable.from(
    (async function* () {
      const whole = Buffer.concat(await stream.toArray());
      yield whole.subarray(0, 100);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      yield whole.subarray(100);
    })(),
  );
}

async function answerWithin(pending: PromiseLike<Response>): Promise<Response | undefined> {
  return Promise.race([Promise.resolve(pending), new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), BOUND_MS).unref())]);
}

describe('server download: the store has storage.readTimeout to find the file and start sending it', function () {
  this.timeout(10_000);
  let testApp: TestApp;
  let fileName: string;
  let control: StallingStore;

  beforeEach(async () => {
    control = { stall: 'nothing', restDelayMs: 0, signals: [] };
    testApp = await buildTestApp({ readTimeoutMs: READ_TIMEOUT_MS, audioStoreInApp: (folderStore) => stallingStore(folderStore, control) });
    ({ fileName } = await testApp.audioStore.save(BYTES, 'mp3'));
  });
  afterEach(() => testApp.close());

  const download = () => request(testApp.app).get(`/api/v1/audio/download/${fileName}`).responseType('blob');

  /** 503 in the spec's envelope with Retry-After, and nothing of the file's name (its download capability). */
  function expectStorageTimeout(response: Response | undefined): void {
    expect(response, `an answer within ${BOUND_MS} ms`).to.not.equal(undefined);
    expect(response!.status).to.equal(503);
    expect(response!.headers['retry-after']).to.equal('1');
    expect(response!.headers['cache-control']).to.equal('no-store');
    expect(response!.headers['content-disposition']).to.equal(undefined);
    const body = JSON.parse(Buffer.from(response!.body as Buffer).toString()) as unknown;
    const error = expectErrorEnvelope(body, 'TTS_ERR_UNAVAILABLE');
    expect(error.details).to.deep.equal([{ reason: 'storage_timeout' }]);
    expect((body as { message: string }).message).to.equal("The gateway's audio storage is unavailable: it did not answer within 300 ms");
    expect(JSON.stringify(body)).to.not.include(fileName.split('.')[0]);
  }

  it('a store that does not find the file in time: GET and HEAD answer 503 TTS_ERR_UNAVAILABLE with Retry-After at the deadline, and the store is told to stop', async () => {
    control.stall = 'locate';
    expectStorageTimeout(await answerWithin(download()));
    const head = await answerWithin(request(testApp.app).head(`/api/v1/audio/download/${fileName}`));
    expect(head?.status).to.equal(503);
    expect(head?.headers['retry-after']).to.equal('1');
    expect(control.signals).to.have.length(2);
    for (const signal of control.signals) expect(signal?.aborted, 'the signal given to locate').to.equal(true);
    const logged = testApp.logs.find((entry) => entry.message === 'request failed');
    expect(logged?.code).to.equal('TTS_ERR_UNAVAILABLE');
    expect(JSON.stringify(testApp.logs)).to.not.include(fileName.split('.')[0]);
  });

  it('a store that finds the file but does not start sending it in time: 503 at the deadline, the open told to stop', async () => {
    control.stall = 'open';
    expectStorageTimeout(await answerWithin(download()));
    expect(control.signals).to.have.length(2);
    expect(control.signals[1]?.aborted, 'the signal given to open').to.equal(true);
  });

  it('the transfer itself has no deadline: bytes that keep coming after the first ones, past the deadline, arrive whole', async () => {
    control.restDelayMs = READ_TIMEOUT_MS * 3;
    const response = await download().expect(200);
    expect(Buffer.from(response.body as Buffer).equals(BYTES)).to.equal(true);
    expect(control.signals[1]?.aborted, 'the signal given to open, once the transfer is over').to.equal(false);
  });

  it('a client that leaves while the store looks the file up stops the look-up at once, with the cancellation', async () => {
    control.stall = 'locate';
    const server = testApp.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const leaving = httpRequest({ host: '127.0.0.1', port, path: `/api/v1/audio/download/${fileName}` });
      leaving.on('error', () => undefined);
      leaving.end();
      await eventually(() => void expect(control.signals).to.have.length(1));
      leaving.destroy();
      // Well before the deadline: the client's leaving, not the clock, stopped it.
      await eventually(() => void expect(control.signals[0]?.aborted).to.equal(true), 10);
      expect((control.signals[0]?.reason as { code?: string }).code).to.equal('TTS_ERR_CANCELLED');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
