import { expect } from 'chai';
import { createServer, request as httpRequest, type ClientRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Response } from 'express';
import { writeWithBackpressure } from '../../../server/streaming/write-with-backpressure';

/** Far more than the socket buffers hold, so the write has to wait for the reader. */
const BIG_PIECE = Buffer.alloc(8 * 1024 * 1024, 1);

describe('server/streaming writeWithBackpressure', () => {
  let server: Server;
  let answered: Promise<ServerResponse>;
  let client: ClientRequest;

  beforeEach(async () => {
    let hand: (response: ServerResponse) => void = () => undefined;
    answered = new Promise((resolve) => (hand = resolve));
    server = createServer((_request, response) => {
      response.flushHeaders();
      hand(response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterEach(async () => {
    client?.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const call = (): Promise<IncomingMessage> =>
    new Promise((resolve) => {
      client = httpRequest(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, resolve);
      client.on('error', () => undefined);
      client.end();
    });

  it('resolves true once a slow reader has drained the piece', async () => {
    const [incoming, response] = await Promise.all([call(), answered]);
    const written = writeWithBackpressure(response as unknown as Response, BIG_PIECE);
    let received = 0;
    incoming.on('data', (piece: Buffer) => (received += piece.byteLength));
    expect(await written).to.equal(true);
    response.end();
    await new Promise((resolve) => incoming.on('end', resolve));
    expect(received).to.equal(BIG_PIECE.byteLength);
  });

  it('resolves false when the client goes away before the piece drained, and leaves no listener behind', async () => {
    const [, response] = await Promise.all([call(), answered]);
    const written = writeWithBackpressure(response as unknown as Response, BIG_PIECE);
    client.destroy();
    expect(await written).to.equal(false);
    expect(response.listenerCount('drain')).to.equal(0);
    expect(await writeWithBackpressure(response as unknown as Response, 'more')).to.equal(false);
  });
});
