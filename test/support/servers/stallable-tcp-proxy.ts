import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a real server (PostgreSQL) that a test can stall: while stalled, it
 * keeps every connection open and passes nothing on in either direction, as a server that hangs
 * or a network that drops packets would; resumed, it passes on what it held.
 */
export class StallableTcpProxy {
  private stalled = false;
  private readonly pairs = new Set<{ client: Socket; upstream: Socket }>();
  /** Bytes (or an end, `null`) that arrived while stalled, in order, with the socket each is for. */
  private held: { to: Socket; bytes: Buffer | null }[] = [];

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(targetPort: number, targetHost = '127.0.0.1'): Promise<StallableTcpProxy> {
    let proxy!: StallableTcpProxy;
    // Half-open sockets: a FIN is passed on (or held while stalled) like data, as a cut network would hold it.
    const server = createServer({ allowHalfOpen: true }, (client) => proxy.accept(client, targetPort, targetHost));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new StallableTcpProxy(server, (server.address() as { port: number }).port);
    return proxy;
  }

  /** Stops passing bytes on; the connections stay open. */
  stall(): void {
    this.stalled = true;
  }

  resume(): void {
    this.stalled = false;
    const held = this.held;
    this.held = [];
    for (const { to, bytes } of held) this.deliver(to, bytes);
  }

  /** Pieces of data held back since the stall (a statement sent, not yet passed on). */
  get heldChunks(): number {
    return this.held.length;
  }

  /** Connections open through the proxy now. */
  get openConnections(): number {
    return this.pairs.size;
  }

  /** Breaks every connection open now (held bytes dropped, no more stall); new ones are passed on again. */
  cutConnections(): void {
    this.stalled = false;
    this.held = [];
    for (const { client, upstream } of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
  }

  async close(): Promise<void> {
    for (const { client, upstream } of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    await new Promise((resolve) => this.server.close(resolve));
  }

  private pass(to: Socket, bytes: Buffer | null): void {
    if (this.stalled) this.held.push({ to, bytes });
    else this.deliver(to, bytes);
  }

  private deliver(to: Socket, bytes: Buffer | null): void {
    if (to.destroyed) return;
    if (bytes === null) to.end();
    else to.write(bytes);
  }

  private accept(client: Socket, targetPort: number, targetHost: string): void {
    const upstream = createConnection({ port: targetPort, host: targetHost, allowHalfOpen: true });
    const pair = { client, upstream };
    this.pairs.add(pair);
    // By hand rather than pipe(): a pipe resumes a paused socket on its own when the other drains.
    client.on('data', (bytes: Buffer) => this.pass(upstream, bytes));
    upstream.on('data', (bytes: Buffer) => this.pass(client, bytes));
    client.on('end', () => this.pass(upstream, null));
    upstream.on('end', () => this.pass(client, null));
    const end = (): void => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  }
}
