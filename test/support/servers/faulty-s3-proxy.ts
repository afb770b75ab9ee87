import { createServer, request as forward, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * What the proxy does with reads of objects (GET and HEAD): pass them on, hold them without an
 * answer (a stalled S3), or answer an S3 error of its own (503 SlowDown, 404 NoSuchKey).
 */
export type ReadFault = 'pass' | 'stall' | { readonly status: number; readonly code: string };

/**
 * An HTTP proxy in front of a real S3-compatible server (s3rver) that a test can make fail reads
 * the ways S3 does, while writes, deletes and listings go through, or stall too (a bucket that
 * stopped answering altogether). s3rver takes any signature, so requests signed for the proxy's
 * address are accepted as they are.
 */
export class FaultyS3Proxy {
  reads: ReadFault = 'pass';
  /** Writes, deletes and listings: passed on, or held without an answer. */
  others: 'pass' | 'stall' = 'pass';
  /** Object reads that arrived, and those answered with a fault or held. */
  readsSeen = 0;
  readsFaulted = 0;
  /** Held reads whose client closed the connection (a deadline or a client that left). */
  stalledReadsClosed = 0;
  /** Writes, deletes and listings held, and those of them whose client closed the connection (its time limit). */
  othersStalled = 0;
  stalledOthersClosed = 0;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(targetPort: number): Promise<FaultyS3Proxy> {
    let proxy!: FaultyS3Proxy;
    const server = createServer((incoming, outgoing) => proxy.handle(incoming, outgoing, targetPort));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new FaultyS3Proxy(server, (server.address() as { port: number }).port);
    server.on('connection', (socket) => {
      proxy.sockets.add(socket);
      socket.on('close', () => proxy.sockets.delete(socket));
    });
    return proxy;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private handle(incoming: IncomingMessage, outgoing: ServerResponse, targetPort: number): void {
    // Path style: /bucket/key. A read of the bucket itself (a listing) is no object read.
    const objectRead = (incoming.method === 'GET' || incoming.method === 'HEAD') && /^\/[^/?]+\/[^?]+/.test(incoming.url ?? '');
    if (objectRead) {
      this.readsSeen += 1;
      const fault = this.reads;
      if (fault === 'stall') {
        this.readsFaulted += 1;
        incoming.resume();
        outgoing.on('close', () => (this.stalledReadsClosed += 1));
        return;
      }
      if (fault !== 'pass') {
        this.readsFaulted += 1;
        incoming.resume();
        const body = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${fault.code}</Code><Message>stand-in fault</Message></Error>`;
        outgoing.writeHead(fault.status, { 'Content-Type': 'application/xml', 'Content-Length': String(Buffer.byteLength(body)) });
        outgoing.end(incoming.method === 'HEAD' ? undefined : body);
        return;
      }
    } else if (this.others === 'stall') {
      this.othersStalled += 1;
      incoming.resume();
      outgoing.on('close', () => (this.stalledOthersClosed += 1));
      return;
    }
    const upstream = forward({ host: '127.0.0.1', port: targetPort, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  }
}
