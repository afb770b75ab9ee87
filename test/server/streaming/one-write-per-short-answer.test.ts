import { expect } from 'chai';
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createGatewayServer } from '../../../server/gateway-server';
import { writeWithBackpressure } from '../../../server/streaming/write-with-backpressure';
import { testServerConfig } from '../support/server-config';

const CONFIG = testServerConfig();

/** A typical upstream answer: one piece of 20 KB, more than Node's default 16 KB socket buffer. */
const PIECE = Buffer.alloc(20 * 1024, 7);

/** Counts the system-level writes Node hands the socket (one per `_write`/`_writev` call). */
function countWrites(socket: Socket): () => number {
  let writes = 0;
  const target = socket as unknown as Record<'_write' | '_writev', (...args: unknown[]) => unknown>;
  for (const method of ['_write', '_writev'] as const) {
    const original = target[method].bind(socket);
    target[method] = (...args: unknown[]) => {
      writes += 1;
      return original(...args);
    };
  }
  return () => writes;
}

describe('server: a short streamed answer leaves in one write', () => {
  let server: Server;
  let writesOfLastAnswer: () => number = () => 0;
  let pieces: Buffer[] = [];

  before(async () => {
    const app = express();
    app.get('/stream', async (request, response) => {
      writesOfLastAnswer = countWrites(response.socket as Socket);
      response.setHeader('Content-Type', 'audio/mpeg');
      for (const piece of pieces) {
        if (!(await writeWithBackpressure(response, piece))) return;
        // The next piece (or the end) arrives a tick later, as from a stream.
        await new Promise((resolve) => process.nextTick(resolve));
      }
      response.end();
    });
    server = createGatewayServer(app, CONFIG);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const fetchStream = async (): Promise<Buffer> => {
    const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/stream`);
    expect(answer.status).to.equal(200);
    return Buffer.from(await answer.arrayBuffer());
  };

  it('sends headers, a 20 KB piece and the end of the chunked body in one write', async () => {
    pieces = [PIECE];
    const body = await fetchStream();
    expect(body.equals(PIECE)).to.equal(true);
    expect(writesOfLastAnswer()).to.equal(1);
  });

  it('still delivers every byte of many pieces made in the same pass', async () => {
    pieces = Array.from({ length: 10 }, (_, index) => Buffer.alloc(5000, index));
    const body = await fetchStream();
    expect(body.equals(Buffer.concat(pieces))).to.equal(true);
    expect(writesOfLastAnswer()).to.equal(1);
  });
});
