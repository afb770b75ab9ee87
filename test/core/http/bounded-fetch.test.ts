import { expect } from 'chai';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { boundedFetch, createPooledFetch, GatewayError, loadProviders, upstreamFetch, upstreamStream } from '../../../core';
import { FakeDeployment } from '../plugin/plugin-test-helpers';

const MEGABYTE = 1024 * 1024;
const PIECE = Buffer.alloc(64 * 1024, 7);

/** What the stand-in did for one answer: bytes it managed to write, and whether the client hung up first. */
interface Delivery {
  written: number;
  cutOff: boolean;
  finished: Promise<void>;
}

/**
 * A real upstream on a local port: `/endless` streams 64 KiB pieces (up to `totalBytes`) as fast
 * as the client reads, without a Content-Length; `/declared` announces `totalBytes` in
 * Content-Length and sends one piece; `/small` answers 3 bytes.
 */
class StreamingStandIn {
  readonly deliveries: Delivery[] = [];
  private server?: Server;

  constructor(private readonly totalBytes: number) {}

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      if (request.url === '/small') {
        response.end('abc');
        return;
      }
      const delivery = this.deliver(response);
      if (request.url === '/declared') response.setHeader('Content-Length', String(this.totalBytes));
      response.setHeader('Content-Type', 'audio/mpeg');
      if (request.url === '/declared') {
        response.write(PIECE);
        return;
      }
      const pump = (): void => {
        while (delivery.written < this.totalBytes && !response.destroyed) {
          delivery.written += PIECE.length;
          if (!response.write(PIECE)) {
            response.once('drain', pump);
            return;
          }
        }
        if (!response.destroyed) response.end();
      };
      pump();
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private deliver(response: ServerResponse): Delivery {
    let settle = (): void => undefined;
    const delivery: Delivery = { written: 0, cutOff: false, finished: new Promise<void>((resolve) => (settle = resolve)) };
    response.once('close', () => {
      delivery.cutOff = !response.writableFinished;
      settle();
    });
    this.deliveries.push(delivery);
    return delivery;
  }
}

async function rejection(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => expect.fail('expected a rejection'),
    (caught: unknown) => caught,
  );
  expect(error).to.be.instanceOf(GatewayError);
  return error as GatewayError;
}

describe('core/http boundedFetch (per-provider maxResponseBytes) against a real streaming upstream', function () {
  this.timeout(30_000);
  // An upstream that would send 512 MiB: the client must stop long before.
  const standIn = new StreamingStandIn(512 * MEGABYTE);
  let base: string;
  before(async () => (base = await standIn.start()));
  after(() => standIn.stop());

  // The platform's fetch, and the pooled one whose answers keep a Node stream as their body.
  const clients: [string, () => { fetch: typeof fetch; close(): Promise<void> }][] = [
    ['the platform fetch', () => ({ fetch, close: async () => undefined })],
    ['the pooled fetch', () => createPooledFetch()],
  ];
  for (const [clientName, makeClient] of clients) {
    describe(`over ${clientName}`, () => {
      let client: { fetch: typeof fetch; close(): Promise<void> };
      before(() => (client = makeClient()));
      after(() => client.close());
      const request = (path: string, maxBytes: number) => ({ provider: 'Acme', fetch: boundedFetch(client.fetch, maxBytes, 'Acme'), url: `${base}${path}`, timeoutMs: 20_000 });

      it('fails a whole-body read with 502 as soon as the body passes the cap, and hangs up on the upstream', async () => {
        const error = await rejection(upstreamFetch(request('/endless', 2 * MEGABYTE)));
        expect(error.code).to.equal('TTS_ERR_UPSTREAM_BAD_RESPONSE');
        expect(error.status).to.equal(502);
        expect(error.message).to.equal('Acme sent an unusable answer: its answer is larger than the limit of 2097152 bytes');
        const delivery = standIn.deliveries.at(-1)!;
        await delivery.finished;
        expect(delivery.cutOff).to.equal(true);
        // What the upstream got out before the hang-up: the cap and what sockets buffer, not 512 MiB.
        expect(delivery.written).to.be.below(64 * MEGABYTE);
      });

      it('fails a streamed read at the cap too, after handing on what came before it', async () => {
        const response = await upstreamStream(request('/endless', MEGABYTE));
        let received = 0;
        const error = await rejection(
          (async () => {
            for await (const piece of response.chunks) received += piece.byteLength;
          })(),
        );
        expect(error.code).to.equal('TTS_ERR_UPSTREAM_BAD_RESPONSE');
        expect(received).to.be.at.most(MEGABYTE);
        const delivery = standIn.deliveries.at(-1)!;
        await delivery.finished;
        expect(delivery.cutOff).to.equal(true);
      });

      it('refuses a declared Content-Length over the cap before reading the body', async () => {
        const error = await rejection(upstreamFetch(request('/declared', MEGABYTE)));
        expect(error.code).to.equal('TTS_ERR_UPSTREAM_BAD_RESPONSE');
        const delivery = standIn.deliveries.at(-1)!;
        await delivery.finished;
        expect(delivery.cutOff).to.equal(true);
      });

      it('hands on an answer within the cap unchanged', async () => {
        const response = await upstreamFetch(request('/small', 3));
        expect(Buffer.from(response.body).toString()).to.equal('abc');
        expect(response.status).to.equal(200);
      });
    });
  }

  it("gives each plugin a fetch bounded by its provider entry's maxResponseBytes", async () => {
    const deployment = new FakeDeployment();
    try {
      const [loaded] = await loadProviders([{ plugin: 'fake', maxResponseBytes: MEGABYTE }], deployment.options({ fetch }));
      const context = (loaded.provider as unknown as { context: { fetch: typeof fetch } }).context;
      const answer = await context.fetch(`${base}/endless`);
      const error = await rejection(answer.arrayBuffer());
      expect(error.message).to.equal('fake sent an unusable answer: its answer is larger than the limit of 1048576 bytes');
    } finally {
      deployment.remove();
    }
  });
});
