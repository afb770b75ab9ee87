import { expect } from 'chai';
import express from 'express';
import type { Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { abortOnDisconnect } from '../../server/abort-on-disconnect';

describe('server/abort-on-disconnect', () => {
  let server: Server;
  let port: number;
  let reportSignal: (signal: AbortSignal) => void = () => undefined;

  before(async () => {
    const app = express();
    // As a slow step before the route (the key check, the limits): the client leaves meanwhile.
    app.post('/', (_request, response, next) => {
      if (response.destroyed) next();
      else response.once('close', () => next());
    });
    app.post('/', (_request, response) => {
      const disconnect = abortOnDisconnect(response);
      reportSignal(disconnect.signal);
      disconnect.dispose();
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  it('is aborted at once for a client that left before the route began, so no work starts for nobody', async () => {
    const signal = new Promise<AbortSignal>((resolve) => (reportSignal = resolve));
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    const seen = await signal;
    expect(seen.aborted).to.equal(true);
    expect((seen.reason as { code?: string }).code).to.equal('TTS_ERR_CANCELLED');
  });
});
