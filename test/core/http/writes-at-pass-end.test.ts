import { expect } from 'chai';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { holdWritesToPassEnd } from '../../../core/http';

/** A loopback pair: the server's end holds its writes, the client's end reads. */
interface Pair {
  readonly held: Socket;
  readonly reader: Socket;
  received(): Buffer;
  readonly readerClosed: Promise<void>;
}

const passEnd = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('core/http holdWritesToPassEnd', function () {
  this.timeout(20_000);
  let server: Server;
  let accepted: Socket[];
  const pairs: Pair[] = [];

  before(async () => {
    server = createServer((socket) => {
      holdWritesToPassEnd(socket);
      accepted.push(socket);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  beforeEach(() => (accepted = []));
  afterEach(() => {
    for (const pair of pairs.splice(0)) {
      pair.held.destroy();
      pair.reader.destroy();
    }
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function openPair(): Promise<Pair> {
    const reader = connect((server.address() as AddressInfo).port, '127.0.0.1');
    const parts: Buffer[] = [];
    reader.on('data', (part: Buffer) => parts.push(part));
    reader.on('error', () => undefined);
    const readerClosed = new Promise<void>((resolve) => reader.once('close', () => resolve()));
    const count = accepted.length;
    await new Promise<void>((resolve) => reader.once('connect', () => resolve()));
    while (accepted.length === count) await passEnd();
    const pair = { held: accepted[count], reader, received: () => Buffer.concat(parts), readerClosed };
    pairs.push(pair);
    return pair;
  }

  it('hands a write to the kernel only when the pass ends; until then it counts as being written', async () => {
    const { held, reader } = await openPair();
    let written = false;
    held.write('answer', () => (written = true));
    await Promise.resolve();
    expect(held.writableLength).to.equal(6);
    expect(written).to.equal(false);
    await passEnd();
    expect(held.writableLength).to.equal(0);
    await new Promise((resolve) => reader.once('data', resolve));
    expect(written).to.equal(true);
  });

  it('delivers every write of a pass on several sockets, each socket in its order', async () => {
    const all = [await openPair(), await openPair(), await openPair()];
    all.forEach((pair, index) => {
      pair.held.write(`first ${index};`);
      pair.held.write(`second ${index};`);
      pair.held.end(`last ${index}`);
    });
    for (const [index, pair] of all.entries()) {
      await new Promise<void>((resolve) => (pair.reader.readableEnded ? resolve() : pair.reader.once('end', () => resolve())));
      expect(pair.received().toString()).to.equal(`first ${index};second ${index};last ${index}`);
    }
  });

  it('writes the held answer of a socket destroyed in the same pass first (as Node answers a 408 and cuts off)', async () => {
    const { held, reader, received } = await openPair();
    held.write('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
    held.destroy();
    await new Promise<void>((resolve) => reader.once('close', () => resolve()));
    expect(received().toString()).to.match(/^HTTP\/1\.1 408 /);
  });

  it('fails the held write of a socket the peer reset as a closed socket does, and still writes the others', async () => {
    const gone = await openPair();
    const alive = await openPair();
    gone.reader.resetAndDestroy();
    await new Promise<void>((resolve) => gone.held.once('end', () => resolve()).once('error', () => resolve()).once('close', () => resolve()));
    const failure = new Promise<Error | null | undefined>((resolve) => {
      gone.held.on('error', () => undefined);
      gone.held.write('too late', resolve);
    });
    alive.held.write('on time');
    const error = await failure;
    expect(error).to.be.instanceOf(Error);
    await new Promise((resolve) => alive.reader.once('data', resolve));
    expect(alive.received().toString()).to.equal('on time');
  });

  it("throws a write callback's exception as an uncaught one, as without the hold, and still makes the pass's other writes", async () => {
    const throwing = await openPair();
    const other = await openPair();
    const mochaHandlers = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    try {
      const uncaught = new Promise<unknown>((resolve) => process.once('uncaughtException', resolve));
      throwing.held.write('first', () => {
        throw new Error('a listener bug');
      });
      other.held.write('second');
      expect(((await uncaught) as Error).message).to.equal('a listener bug');
    } finally {
      for (const handler of mochaHandlers) process.on('uncaughtException', handler);
    }
    while (other.received().length < 'second'.length) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(other.received().toString()).to.equal('second');
    expect(throwing.held.destroyed).to.equal(false);
  });

  it('keeps the backpressure of a reader that stops: the unsent rest stays counted, and every byte arrives in order once it reads', async () => {
    const { held, reader, received } = await openPair();
    reader.pause();
    const pieceBytes = 64 * 1024;
    const pieces = 400;
    for (let index = 0; index < pieces; index += 1) held.write(Buffer.alloc(pieceBytes, index % 251));
    for (let pass = 0; pass < 5; pass += 1) await passEnd();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // 25 MB is more than loopback's socket buffers take: the rest waits in the Writable, visibly.
    expect(held.writableLength).to.be.above(4 * 1024 * 1024);
    expect(held.writableNeedDrain).to.equal(true);
    reader.resume();
    held.end();
    await new Promise<void>((resolve) => (reader.readableEnded ? resolve() : reader.once('end', () => resolve())));
    const bytes = received();
    expect(bytes.length).to.equal(pieces * pieceBytes);
    for (let index = 0; index < pieces; index += 1) expect(bytes[index * pieceBytes + 100]).to.equal(index % 251);
  });
});
