import { expect } from 'chai';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { createGatewayServer } from '../../server/gateway-server';
import { buildTestApp, type TestApp, type TestAppOptions } from './support/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The official SDK against the gateway's real HTTP server (its answers to what Node refuses
 * included): each error reaches it as its typed error, with `code`, `type`, `param` and the
 * request id (`error.requestID`, from `x-request-id`) filled in.
 */
describe('server /v1 with the official SDK: its error answers', () => {
  let testApp: TestApp;
  let apiKey: string;
  let server: Server;
  let baseURL: string;

  async function start(options: TestAppOptions = {}): Promise<void> {
    testApp = await buildTestApp(options);
    ({ apiKey } = await testApp.register());
    server = createGatewayServer(testApp.app, testApp.config.server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  }
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await testApp.close();
  });

  const failure = (promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> =>
    promise.then(
      () => expect.fail('the call succeeded'),
      (error: unknown) => error as InstanceType<typeof OpenAI.APIError>,
    );

  it('gives headers over the size limit (431, answered before the app sees the request) a request id', async () => {
    await start();
    const client = new OpenAI({ apiKey, baseURL, maxRetries: 0, defaultHeaders: { 'x-large': 'a'.repeat(20_000) } });
    const error = await failure(client.models.list());
    expect(error).to.be.instanceOf(OpenAI.APIError);
    expect(error).to.include({ status: 431, type: 'invalid_request_error', param: null, code: null });
    expect(error.requestID).to.match(UUID);
  });

  it('names an unknown /v1 path or method as the client sent it, /v1 included', async () => {
    await start();
    const client = new OpenAI({ apiKey, baseURL, maxRetries: 0 });
    const unknownPath = await failure(client.get('/engines'));
    expect(unknownPath).to.be.instanceOf(OpenAI.NotFoundError);
    expect(unknownPath).to.include({ type: 'invalid_request_error', param: null, code: null });
    expect(unknownPath.message).to.equal('404 No such route for GET /v1/engines');
    const unknownMethod = await failure(client.models.delete('tts-1'));
    expect(unknownMethod).to.be.instanceOf(OpenAI.NotFoundError);
    expect(unknownMethod.message).to.equal('404 No such route for DELETE /v1/models/tts-1');
    expect(unknownMethod.requestID).to.match(UUID);
  });
});
