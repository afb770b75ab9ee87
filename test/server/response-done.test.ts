import { expect } from 'chai';
import { createServer, get, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onResponseDone } from '../../server/response-done';

describe('server onResponseDone', () => {
  let server: Server;
  let port: number;
  let answer: (response: ServerResponse) => void;
  before(async () => {
    server = createServer((_request, response) => answer(response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  function reportsOf(respond: (response: ServerResponse) => void): { reports: string[]; listeners: number[]; ended: Promise<void> } {
    const reports: string[] = [];
    const listeners: number[] = [];
    let ended!: () => void;
    const endedPromise = new Promise<void>((resolve) => (ended = resolve));
    answer = (response) => {
      const before = response.listenerCount('finish') + response.listenerCount('close');
      onResponseDone(response, (completed) => reports.push(`log ${completed}`));
      onResponseDone(response, (completed) => {
        reports.push(`metrics ${completed}`);
        ended();
      });
      listeners.push(response.listenerCount('finish') + response.listenerCount('close') - before);
      respond(response);
    };
    return { reports, listeners, ended: endedPromise };
  }

  it('tells every caller once that a whole answer went out, through one pair of listeners', async () => {
    const { reports, listeners, ended } = reportsOf((response) => response.end('ok'));
    await new Promise<void>((resolve) => get(`http://127.0.0.1:${port}/`, (response) => response.resume().on('end', resolve)));
    await ended;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reports).to.deep.equal(['log true', 'metrics true']);
    expect(listeners).to.deep.equal([2]);
  });

  it('tells every caller once that the client left before the answer was complete', async () => {
    const { reports, ended } = reportsOf((response) => response.write('part'));
    const request = get(`http://127.0.0.1:${port}/`, (response) => {
      response.once('data', () => request.destroy());
    });
    request.on('error', () => undefined);
    await ended;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reports).to.deep.equal(['log false', 'metrics false']);
  });
});
