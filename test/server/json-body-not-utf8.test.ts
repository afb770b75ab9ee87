import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { buildTestApp, expectErrorEnvelope, type TestApp } from './support/test-app';

/** POSTs raw bytes (supertest would re-encode them) with a declared length, or chunked. */
function postRaw(port: number, path: string, headers: Record<string, string>, bytes: Buffer, chunked = false): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const lengthHeader: Record<string, string> = chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(bytes.length) };
    const call = httpRequest({ host: '127.0.0.1', port, method: 'POST', path, headers: { ...headers, ...lengthHeader } }, (answer) => {
      let text = '';
      answer.on('data', (part: Buffer) => (text += part.toString('utf8')));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body: JSON.parse(text) as unknown }));
    });
    call.on('error', reject);
    call.end(bytes);
  });
}

/**
 * README, Errors: 400 TTS_ERR_VALIDATION for "a body that is not `application/json` or not
 * UTF-8". A client that sends Latin-1 (or Windows-1252) bytes as JSON, the commonest encoding
 * mistake, must hear so; instead each such byte silently becomes U+FFFD and is synthesized.
 */
describe('server: a JSON body that is not UTF-8', () => {
  let testApp: TestApp;
  let server: Server;
  let port: number;
  let apiKey: string;
  beforeEach(async () => {
    testApp = await buildTestApp();
    ({ apiKey } = await testApp.register());
    server = testApp.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
    await testApp.close();
  });

  // "café" written in Latin-1: 0xE9 alone is no UTF-8.
  const latin1Body = Buffer.from('{"model":"espeak-ng","voice":"en-us","text":"caf\u00e9"}', 'latin1');

  for (const chunked of [false, true]) {
    it(`is refused with 400 before any synthesis (${chunked ? 'chunked' : 'with a Content-Length'})`, async () => {
      const answer = await postRaw(port, '/api/v1/common/tts-sync', { 'content-type': 'application/json', 'x-api-key': apiKey }, latin1Body, chunked);
      expect(testApp.synthesisCalls.map((call) => call.request.text)).to.deep.equal([]);
      expect(answer.status).to.equal(400);
      expectErrorEnvelope(answer.body, 'TTS_ERR_VALIDATION');
    });
  }

  it('still takes valid UTF-8', async () => {
    const answer = await postRaw(port, '/api/v1/common/tts-sync', { 'content-type': 'application/json', 'x-api-key': apiKey }, Buffer.from('{"model":"espeak-ng","voice":"en-us","text":"café"}', 'utf8'));
    expect(answer.status).to.equal(200);
    expect(testApp.synthesisCalls.map((call) => call.request.text)).to.deep.equal(['café']);
  });
});
