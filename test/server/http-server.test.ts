import { expect } from 'chai';
import express from 'express';
import { IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpServer } from '../../server/http-server';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('server createHttpServer', () => {
  let server: Server;
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("creates requests and responses with the app's own prototypes, so Express has nothing to swap", async () => {
    const app = express();
    const seen: { requestProto: unknown; responseProto: unknown; isMessage: boolean; isResponse: boolean }[] = [];
    app.get('/echo/:name', (request, response) => {
      seen.push({
        requestProto: Object.getPrototypeOf(request),
        responseProto: Object.getPrototypeOf(response),
        isMessage: request instanceof IncomingMessage,
        isResponse: response instanceof ServerResponse,
      });
      response.status(201).json({ name: request.params.name, header: request.get('X-Thing') ?? null, query: request.query.q ?? null });
    });
    const expressApp = app as unknown as { request: object; response: object };
    server = createHttpServer(app);
    const base = await listen(server);
    for (let round = 0; round < 2; round += 1) {
      const answer = await fetch(`${base}/echo/ada?q=1`, { headers: { 'X-Thing': 'yes' } });
      expect(answer.status).to.equal(201);
      expect(answer.headers.get('content-type')).to.match(/^application\/json/);
      expect(await answer.json()).to.deep.equal({ name: 'ada', header: 'yes', query: '1' });
    }
    expect(seen).to.have.length(2);
    for (const entry of seen) {
      expect(entry.requestProto).to.equal(expressApp.request);
      expect(entry.responseProto).to.equal(expressApp.response);
      expect(entry.isMessage && entry.isResponse).to.equal(true);
    }
  });

  it('serves request bodies, errors and unknown paths as the app does', async () => {
    const app = express();
    app.post('/body', express.json(), (request, response) => {
      response.json({ got: request.body as unknown });
    });
    app.get('/fail', () => {
      throw new Error('boom');
    });
    app.use((error: Error, request: express.Request, response: express.Response, next: express.NextFunction) => {
      void next;
      response.status(500).json({ error: error.message });
    });
    server = createHttpServer(app);
    const base = await listen(server);
    const posted = await fetch(`${base}/body`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":[1,2]}' });
    expect(await posted.json()).to.deep.equal({ got: { a: [1, 2] } });
    const failed = await fetch(`${base}/fail`);
    expect(failed.status).to.equal(500);
    expect(await failed.json()).to.deep.equal({ error: 'boom' });
    expect((await fetch(`${base}/nowhere`)).status).to.equal(404);
  });
});
