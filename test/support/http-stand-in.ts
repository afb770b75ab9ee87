/**
 * A provider's API on a real local HTTP server, for streaming tests: each request waits for the
 * test to script its answer piece by piece (headers, a piece, another piece, the end, or a cut
 * connection), so a test controls exactly what the client has been sent at every point, with no
 * timers.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the stand-in received it. */
export interface ReceivedRequest {
  readonly method: string;
  /** Path and query, as sent. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** The answer to one request, written by the test as it goes. */
export class ScriptedAnswer {
  /** The request, once it has fully arrived. */
  readonly request: Promise<ReceivedRequest>;
  /** Settles when the client closes the connection before the answer has ended. */
  readonly closedByClient: Promise<void>;
  private response?: ServerResponse;
  private resolveRequest!: (request: ReceivedRequest) => void;
  private resolveClosed!: () => void;
  private ended = false;

  constructor() {
    this.request = new Promise((resolve) => (this.resolveRequest = resolve));
    this.closedByClient = new Promise((resolve) => (this.resolveClosed = resolve));
  }

  /** Called by the server when this answer's request has arrived. */
  attach(request: IncomingMessage, response: ServerResponse, body: Buffer): void {
    this.response = response;
    response.on('close', () => {
      if (!this.ended) this.resolveClosed();
    });
    this.resolveRequest({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body });
  }

  /** Sends the status line and headers at once (no Content-Length: the body goes chunked). */
  head(status: number, headers: Record<string, string>): void {
    this.live().writeHead(status, headers);
    this.live().flushHeaders();
  }

  /** Sends one piece of the body; settles when it has been handed to the socket. */
  send(piece: Uint8Array | string): Promise<void> {
    return new Promise((resolve, reject) => this.live().write(piece, (error) => (error ? reject(error) : resolve())));
  }

  /** Sends the last piece (if any) and ends the answer properly. */
  end(piece?: Uint8Array | string): Promise<void> {
    this.ended = true;
    return new Promise((resolve) => this.live().end(piece ?? '', () => resolve()));
  }

  /** A whole answer at once: status, headers, body. */
  answer(status: number, headers: Record<string, string>, body: Uint8Array | string): Promise<void> {
    this.ended = true;
    this.live().writeHead(status, headers);
    return new Promise((resolve) => this.live().end(body, () => resolve()));
  }

  /** Breaks the connection off mid-answer, as a crashed server or a dropped network would. */
  cut(): void {
    this.ended = true;
    this.live().socket?.destroy();
  }

  private live(): ServerResponse {
    if (!this.response) throw new Error('the request has not arrived yet: await answer.request first');
    return this.response;
  }
}

export class HttpStandIn {
  readonly received: ReceivedRequest[] = [];
  private readonly waiting: ScriptedAnswer[] = [];
  private readonly arrived: { request: IncomingMessage; response: ServerResponse; body: Buffer }[] = [];

  private constructor(private readonly server: Server) {
    server.on('request', (request, response) => void this.accept(request, response));
  }

  static async start(): Promise<HttpStandIn> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new HttpStandIn(server);
  }

  /** `http://127.0.0.1:<port>`. */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The answer to the next request that arrives (or the oldest one still unanswered). */
  nextAnswer(): ScriptedAnswer {
    const answer = new ScriptedAnswer();
    const early = this.arrived.shift();
    if (early) answer.attach(early.request, early.response, early.body);
    else this.waiting.push(answer);
    return answer;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async accept(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const parts: Buffer[] = [];
    for await (const part of request) parts.push(part as Buffer);
    const body = Buffer.concat(parts);
    this.received.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body });
    const answer = this.waiting.shift();
    if (answer) answer.attach(request, response, body);
    else this.arrived.push({ request, response, body });
  }
}

/** Reads a stream to its end, joining its pieces. */
export async function readAll(chunks: AsyncIterable<Uint8Array> | AsyncIterator<Uint8Array>): Promise<Uint8Array> {
  const iterator = Symbol.asyncIterator in chunks ? chunks[Symbol.asyncIterator]() : chunks;
  const parts: Uint8Array[] = [];
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) parts.push(next.value);
  return new Uint8Array(Buffer.concat(parts));
}
