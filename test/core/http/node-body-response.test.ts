import { expect } from 'chai';
import { Readable } from 'node:stream';
import { isNodeBodyResponse, nodeBodyResponse } from '../../../core/http/node-body-response';

const answer = (...pieces: string[]) =>
  nodeBodyResponse(Readable.from(pieces.map((piece) => Buffer.from(piece))), { status: 201, headers: { 'content-type': 'application/json' } });

describe('core/http nodeBodyResponse', () => {
  it('is a Response with the status and headers given', () => {
    const response = answer('{}');
    expect(response).to.be.instanceOf(Response);
    expect(isNodeBodyResponse(response)).to.equal(true);
    expect(isNodeBodyResponse(new Response('plain'))).to.equal(false);
    expect(response.status).to.equal(201);
    expect(response.ok).to.equal(true);
    expect(response.headers.get('content-type')).to.equal('application/json');
    expect(response.bodyUsed).to.equal(false);
  });

  it('reads the whole body from the Node stream: arrayBuffer, text, json', async () => {
    const bytes = new Uint8Array(await answer('ab', 'cd').arrayBuffer());
    expect(Buffer.from(bytes).toString()).to.equal('abcd');
    // A buffer of its own, not a slice of a shared pool.
    expect(bytes.buffer.byteLength).to.equal(4);
    expect(await answer('he', 'llo').text()).to.equal('hello');
    expect(await answer('{"a":', '1}').json()).to.deep.equal({ a: 1 });
  });

  it('reads a body once: a second read fails as fetch does', async () => {
    const response = answer('x');
    await response.text();
    expect(response.bodyUsed).to.equal(true);
    expect(response.body).to.equal(null);
    const error = await response.text().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).to.be.instanceOf(TypeError);
  });

  it('hands its Node stream over once, while nobody has read the body another way', async () => {
    const response = nodeBodyResponse(Readable.from([Buffer.from('piece')]), { status: 200 });
    const body = response.takeNodeBody();
    expect(body).to.be.instanceOf(Readable);
    expect(response.takeNodeBody()).to.equal(undefined);
    const pieces: Buffer[] = [];
    for await (const piece of body as AsyncIterable<Buffer>) pieces.push(piece);
    expect(Buffer.concat(pieces).toString()).to.equal('piece');
  });

  it('turns into a web stream when a caller asks for one, and then no longer hands the Node stream over', async () => {
    const response = nodeBodyResponse(Readable.from([Buffer.from('we'), Buffer.from('b')]), { status: 200 });
    const web = (response.body as ReadableStream<Uint8Array>).getReader();
    expect(response.takeNodeBody()).to.equal(undefined);
    const pieces: Uint8Array[] = [];
    for (let next = await web.read(); !next.done; next = await web.read()) pieces.push(next.value);
    expect(Buffer.concat(pieces).toString()).to.equal('web');
  });

  it('clones through the web form: both copies read the whole body', async () => {
    const response = answer('co', 'py');
    const copy = response.clone();
    expect(await copy.text()).to.equal('copy');
    expect(await response.text()).to.equal('copy');
  });
});
