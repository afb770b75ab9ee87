import { expect } from 'chai';
import express from 'express';
import type { IncomingMessage, Server } from 'node:http';
import { request as httpRequest } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { jsonBody } from '../../server/middleware/json-body';
import { plainJsonLength } from '../../server/middleware/plain-json-body';

const LIMIT = 1024;

function headersOf(headers: Record<string, string>): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

interface Outcome {
  status: number;
  body: unknown;
}

/** POSTs `bytes` with `headers`; `chunked` sends it without a length, so body-parser reads it. */
function post(port: number, bytes: Buffer, headers: Record<string, string>, chunked = false): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const call = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/', headers: { ...headers, ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(bytes.length) }) } }, (answer) => {
      let text = '';
      answer.on('data', (part: Buffer) => (text += part.toString('utf8')));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body: JSON.parse(text) as unknown }));
    });
    call.on('error', reject);
    call.end(bytes);
  });
}

describe('server/middleware plain JSON bodies', () => {
  let server: Server;
  let port: number;
  const seen: unknown[] = [];
  before(async () => {
    const app = express();
    app.post('/', jsonBody(LIMIT), (request, response) => {
      seen.push(request.body);
      response.json({ body: request.body as unknown });
    });
    app.use((error: { code?: string }, _request: express.Request, response: express.Response, _next: express.NextFunction) => {
      seen.push(error.code);
      response.status(400).json({ code: error.code ?? 'other' });
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  describe('which bodies it reads itself', () => {
    it('takes plain JSON of a declared length within the limit', () => {
      expect(plainJsonLength(headersOf({ 'content-type': 'application/json', 'content-length': '12' }), LIMIT)).to.equal(12);
      expect(plainJsonLength(headersOf({ 'content-type': 'Application/JSON; charset=UTF-8', 'content-length': '3' }), LIMIT)).to.equal(3);
      expect(plainJsonLength(headersOf({ 'content-type': 'application/json;charset="utf8"', 'content-length': '1024' }), LIMIT)).to.equal(1024);
    });

    it('leaves every other body to body-parser', () => {
      const plain = { 'content-type': 'application/json', 'content-length': '12' };
      expect(plainJsonLength(headersOf({ ...plain, 'content-encoding': 'gzip' }), LIMIT)).to.equal(undefined);
      expect(plainJsonLength(headersOf({ 'content-type': 'application/json', 'transfer-encoding': 'chunked' }), LIMIT)).to.equal(undefined);
      expect(plainJsonLength(headersOf({ ...plain, 'content-type': 'application/json; charset=utf-16le' }), LIMIT)).to.equal(undefined);
      expect(plainJsonLength(headersOf({ ...plain, 'content-type': 'text/plain' }), LIMIT)).to.equal(undefined);
      expect(plainJsonLength(headersOf({ ...plain, 'content-type': 'application/json-patch+json' }), LIMIT)).to.equal(undefined);
      expect(plainJsonLength(headersOf({ ...plain, 'content-length': '1025' }), LIMIT)).to.equal(undefined);
      expect(plainJsonLength(headersOf({ ...plain, 'content-length': '0' }), LIMIT)).to.equal(undefined);
      expect(plainJsonLength(headersOf({ ...plain, 'content-length': '1e3' }), LIMIT)).to.equal(undefined);
      expect(plainJsonLength(headersOf({ 'content-type': 'application/json' }), LIMIT)).to.equal(undefined);
    });
  });

  it('reads a plain body itself, never reaching body-parser', async () => {
    // Express's request helpers, which the body-parser path uses first, fail if called.
    const refuse = (): never => {
      throw new Error('the body-parser path was taken');
    };
    const request = Object.assign(Readable.from([Buffer.from('{"a":'), Buffer.from('1}')]), {
      headers: { 'content-type': 'application/json', 'content-length': '7' },
      get: refuse,
      is: refuse,
      body: undefined as unknown,
    });
    const passed = await new Promise<unknown[]>((resolve) => jsonBody(LIMIT)(request as never, {} as never, (...args: unknown[]) => resolve(args)));
    expect(passed).to.deep.equal([]);
    expect(request.body).to.deep.equal({ a: 1 });
  });

  describe('gives the same answer as body-parser', () => {
    const bodies: [string, Buffer][] = [
      ['an object', Buffer.from('{"text":"héllo wörld","speed":1.5}')],
      ['an array', Buffer.from('[1,2,3]')],
      ['an object after whitespace', Buffer.from(' \n\t{"a":1}')],
      ['a byte order mark before an object', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":"b"}')])],
      ['a string at the top', Buffer.from('"just text"')],
      ['a number at the top', Buffer.from('42')],
      ['whitespace only', Buffer.from('   ')],
      ['broken JSON', Buffer.from('{"text": "unterminated')],
      ['invalid UTF-8 inside a string', Buffer.concat([Buffer.from('{"t":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')])],
    ];
    for (const [label, bytes] of bodies) {
      it(`for ${label}`, async () => {
        const headers = { 'content-type': 'application/json; charset=utf-8' };
        const read = await post(port, bytes, headers);
        const parsedByBodyParser = await post(port, bytes, headers, true);
        expect(read).to.deep.equal(parsedByBodyParser);
      });
    }

    it('and a body it leaves to body-parser (gzip) is still parsed', async () => {
      const answer = await post(port, gzipSync('{"a":1}'), { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      expect(answer).to.deep.equal({ status: 200, body: { body: { a: 1 } } });
    });

    it('refuses malformed JSON with TTS_ERR_MALFORMED_JSON', async () => {
      const answer = await post(port, Buffer.from('{oops'), { 'content-type': 'application/json' });
      expect(answer).to.deep.equal({ status: 400, body: { code: 'TTS_ERR_MALFORMED_JSON' } });
    });
  });

  it('reads a body that arrives in several pieces', async () => {
    const text = JSON.stringify({ text: 'x'.repeat(900) });
    const socket = connect(port, '127.0.0.1');
    const answer = new Promise<string>((resolve) => {
      let received = '';
      socket.on('data', (part) => (received += part.toString('utf8')));
      socket.on('end', () => resolve(received));
    });
    socket.write(`POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${text.length}\r\n\r\n`);
    for (let at = 0; at < text.length; at += 100) {
      socket.write(text.slice(at, at + 100));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(await answer).to.include(`{"body":${text}}`);
  });

  it('names a client that leaves mid-body as cancelled, once, and goes on serving', async () => {
    seen.length = 0;
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"text":');
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    for (let waited = 0; seen.length === 0 && waited < 2000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).to.deep.equal(['TTS_ERR_CANCELLED']);
    expect(await post(port, Buffer.from('{"after":true}'), { 'content-type': 'application/json' })).to.deep.equal({ status: 200, body: { body: { after: true } } });
  });
});
